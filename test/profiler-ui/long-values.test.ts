import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import type { Locator } from 'playwright-core';
import { SEED_HEADERS } from '../helpers/seed-request.js';
import { demoInBrowser } from '../helpers/demo-in-browser.js';

const FORWARDED = Object.fromEntries(SEED_HEADERS.filter(([name]) => name.startsWith('x-')));
const PHONE = { width: 390, height: 800 };
const DESKTOP = { width: 1280, height: 900 };

// The words of each element's text that are drawn on more than one line although narrower than the
// element: a word cut where a break between words would have done.
function wordsSplitNeedlessly(cells: Locator): Promise<string[]> {
  return cells.evaluateAll((elements) =>
    elements.flatMap((element) => {
      const room = element.getBoundingClientRect().width;
      const walker = document.createTreeWalker(element, NodeFilter.SHOW_TEXT);
      const split: string[] = [];
      for (let node = walker.nextNode(); node !== null; node = walker.nextNode()) {
        for (const word of (node.textContent ?? '').matchAll(/\S+/g)) {
          const range = document.createRange();
          range.setStart(node, word.index);
          range.setEnd(node, word.index + word[0].length);
          const rects = [...range.getClientRects()];
          const width = rects.reduce((sum, rect) => sum + rect.width, 0);
          if (new Set(rects.map((rect) => Math.round(rect.top))).size > 1 && width < room - 20) split.push(word[0]);
        }
      }
      return split;
    }),
  );
}

// How many lines each element's text takes.
function lineCounts(cells: Locator): Promise<number[]> {
  return cells.evaluateAll((elements) =>
    elements.map((element) => {
      const range = document.createRange();
      range.selectNodeContents(element);
      return new Set([...range.getClientRects()].map((rect) => Math.round(rect.top))).size;
    }),
  );
}

describe('the profiler with long values', () => {
  const ui = demoInBrowser('test-artifacts/profiler-long');
  // The seed 404, and a 404 whose path alone is longer than a phone's screen is wide.
  let seed: string;
  let longPath: string;

  before(async () => {
    const { page } = ui.browser;
    await page.setExtraHTTPHeaders(FORWARDED);
    ui.browser.expectErrorDocument(`${ui.origin}/robots.txt`);
    seed = (await page.goto(`${ui.origin}/robots.txt`))!.headers()['x-debug-token']!;
    await page.setExtraHTTPHeaders({});
    const path = `/${encodeURIComponent('مرحبا-שלום')}/${'archive-'.repeat(12)}`;
    ui.browser.expectErrorDocument(`${ui.origin}${path}`);
    longPath = (await page.goto(`${ui.origin}${path}`))!.headers()['x-debug-token']!;
    await page.goto(`${ui.origin}/about?${'utm_campaign=spring-sale-newsletter-'.repeat(40)}`);
  });

  it('breaks a log message between its words, never inside a word that fits on a line', async () => {
    const { page } = ui.browser;
    await page.goto(`${ui.origin}/_profiler/${seed}?panel=logger`);
    // Wherever the line ends falls, a word is cut there only if words may be cut anywhere.
    for (let width = 1000; width <= 1280; width += 40) {
      await page.setViewportSize({ width, height: 900 });
      assert.deepEqual(await wordsSplitNeedlessly(page.locator('table.logs tbody td:last-child')), [], `at ${width} px`);
    }
    await page.setViewportSize(DESKTOP);
  });

  it('keeps the status, IP, method, time and token of each search result on one line beside a long URL', async () => {
    const { page } = ui.browser;
    await page.goto(`${ui.origin}/_profiler/empty/search/results?limit=10`);
    const cells = page.locator('#search-results tbody td:not(:nth-child(4))');
    assert.ok((await cells.count()) >= 5 * 3);
    assert.deepEqual(new Set(await lineCounts(cells)), new Set([1]));
    await ui.browser.screenshot('search-results');
  });

  it('keeps the event, start and duration of each timeline row on one line', async () => {
    const { page } = ui.browser;
    await page.goto(`${ui.origin}/_profiler/${seed}?panel=time`);
    const cells = page.locator('table.timeline tbody td:is(:nth-child(1), :nth-child(3), :nth-child(4))');
    assert.ok((await page.locator('table.timeline tbody td', { hasText: 'sub-request' }).count()) === 1);
    assert.deepEqual(new Set(await lineCounts(cells)), new Set([1]));
  });

  it('wraps the routing panel headings of a long path within the panel on a phone', async () => {
    const { page } = ui.browser;
    await page.setViewportSize(PHONE);
    await page.goto(`${ui.origin}/_profiler/${longPath}?panel=router`);
    const overflowing = await page.locator('#panel :is(h2, h3, p)').evaluateAll((elements) =>
      elements.filter((element) => element.scrollWidth > element.clientWidth).map((element) => element.textContent),
    );
    assert.deepEqual(overflowing, []);
    await ui.browser.screenshot('routing-phone');
    await page.setViewportSize(DESKTOP);
  });

  it('saw no console error and no failed asset request', () => {
    assert.deepEqual(ui.browser.problems, []);
  });
});
