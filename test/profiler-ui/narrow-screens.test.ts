import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import { SEED_HEADERS } from '../helpers/seed-request.js';
import { demoInBrowser } from '../helpers/demo-in-browser.js';

const FORWARDED = Object.fromEntries(SEED_HEADERS.filter(([name]) => name.startsWith('x-')));
// A phone held upright.
const PHONE = { width: 375, height: 800 };

describe('the profiler on a phone-sized screen', () => {
  const ui = demoInBrowser('test-artifacts/profiler-narrow');

  before(async () => {
    await ui.browser.page.setViewportSize(PHONE);
  });

  // How far the document reaches past the window's right edge, in CSS pixels (0 when it fits).
  const sidewaysOverflow = () => ui.browser.page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);

  it('fits every panel of a record with a long URL to the width of the screen, the menu above the panel', async () => {
    const { page } = ui.browser;
    await page.setExtraHTTPHeaders(FORWARDED);
    ui.browser.expectErrorDocument(`${ui.origin}/robots.txt`);
    const seed = await page.goto(`${ui.origin}/robots.txt`);
    await page.setExtraHTTPHeaders({});
    const failed = seed!.headers()['x-debug-token']!;
    const long = await page.goto(`${ui.origin}/about?${'utm_campaign=spring-sale-newsletter&'.repeat(6)}ref=home`);
    const about = long!.headers()['x-debug-token']!;

    for (const [token, panel] of [[failed, 'exception'], [failed, 'request'], [failed, 'logger'], [failed, 'router'], [failed, 'time'], [about, 'request'], [about, 'rate_limiter'], [about, 'config']]) {
      await page.goto(`${ui.origin}/_profiler/${token}?panel=${panel}`);
      assert.equal(await sidewaysOverflow(), 0, `${panel} of ${token} scrolls sideways`);
      const menu = await page.locator('#menu').boundingBox();
      const content = await page.locator('#panel').boundingBox();
      assert.ok(menu !== null && content !== null && content.y >= menu.y + menu.height, `the ${panel} panel starts below the menu`);
      assert.ok(content.width >= PHONE.width - 20, `the ${panel} panel has the screen's width (${content.width} px)`);
    }
    await ui.browser.screenshot('request-panel');
  });

  it('keeps every link of the toolbar of a failed page on screen', async () => {
    const { page } = ui.browser;
    ui.browser.expectErrorDocument(`${ui.origin}/boom`);
    const response = await page.goto(`${ui.origin}/boom`);
    const token = response!.headers()['x-debug-token']!;
    const links = page.locator(`#sfwdt${token} a`);
    assert.ok((await links.count()) >= 5, 'status, time, exception, logs, forward and record links');
    for (const link of await links.all()) {
      const box = await link.boundingBox();
      assert.ok(box !== null && box.x >= 0 && box.x + box.width <= PHONE.width, `${await link.innerText()} is on screen (${JSON.stringify(box)})`);
    }
    await ui.browser.screenshot('toolbar');
  });

  it('saw no console error and no failed asset request', () => {
    assert.deepEqual(ui.browser.problems, []);
  });
});
