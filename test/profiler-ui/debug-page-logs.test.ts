import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Request } from '../../src/http/request.js';
import type { RouteDefinition } from '../../src/routing/route.js';
import { launchBrowser, type Browser } from '../helpers/browser.js';
import { startDemo, type RunningDemo } from '../helpers/start-demo.js';

describe("the debug page's log filters in a real browser", () => {
  let demo: RunningDemo;
  let browser: Browser;
  let url: string;

  before(async () => {
    // A checkout that logs on two channels of its own before it fails: with the router's "Matched route"
    // and the error's own line, the page lists five records from three channels.
    const route: RouteDefinition = {
      name: 'checkout',
      path: '/checkout',
      methods: ['GET'],
      controller: (request: Request) => {
        demo.app.logger.channel('app').debug('Cart loaded', { items: 3 }, request);
        demo.app.logger.channel('payment').info('Charging the card', {}, request);
        demo.app.logger.channel('payment').warning('The card issuer answered slowly', {}, request);
        throw new Error('Card declined on purpose');
      },
    };
    demo = await startDemo({}, [route]);
    url = `http://127.0.0.1:${demo.port}/checkout`;
    browser = await launchBrowser({ artifacts: 'test-artifacts/debug-page' });
  });

  after(async () => {
    await browser?.close();
    await demo?.close();
  });

  const shownRows = () => browser.page.locator('table.logs tbody tr:visible').allInnerTexts();
  const choose = async (group: string, label: RegExp) => {
    await browser.page.getByRole('radiogroup', { name: group }).locator('label', { hasText: label }).click();
  };

  it('filters the Logs tab by minimum level and by channel, each option counting what it shows', async () => {
    const { page } = browser;
    browser.expectErrorDocument(url);
    const response = await page.goto(url);
    assert.equal(response?.status(), 500);
    await page.locator('label[for="tab-logs"]').click();
    assert.equal((await shownRows()).length, 5);
    const levels = await page.getByRole('radiogroup', { name: 'Minimum level' }).locator('label').allInnerTexts();
    assert.deepEqual(
      levels.map((label) => label.replace(/\s+/g, ' ')),
      ['All 5', 'Info+ 4', 'Notice+ 2', 'Warning+ 2', 'Error+ 1'],
    );

    await choose('Minimum level', /^Warning\+/);
    let rows = await shownRows();
    assert.equal(rows.length, 2, rows.join('\n'));
    assert.match(rows[0]!, /WARNING[\s\S]*payment[\s\S]*answered slowly/);
    assert.match(rows[1]!, /CRITICAL[\s\S]*request[\s\S]*Card declined on purpose/);

    await choose('Minimum level', /^All/);
    await choose('Channel', /^payment/);
    rows = await shownRows();
    assert.equal(rows.length, 2, rows.join('\n'));
    assert.ok(rows.every((row) => /\bpayment\b/.test(row)), rows.join('\n'));

    // Both at once: payment's records at warning or above.
    await choose('Minimum level', /^Warning\+/);
    rows = await shownRows();
    assert.equal(rows.length, 1, rows.join('\n'));
    assert.match(rows[0]!, /answered slowly/);
    await browser.screenshot('logs-filtered');

    await choose('Channel', /^All/);
    await choose('Minimum level', /^All/);
    assert.equal((await shownRows()).length, 5);
    assert.deepEqual(browser.problems, []);
  });

  it('moves through the options with the keyboard, the focused one outlined', async () => {
    const { page } = browser;
    await page.getByRole('radio', { name: /^All/ }).first().focus();
    await page.keyboard.press('ArrowRight');
    assert.equal(await page.locator('#log-level-info').isChecked(), true);
    const outline = await page.locator('#log-level-info').evaluate((input) => getComputedStyle(input.closest('label')!).outlineStyle);
    assert.equal(outline, 'solid');
    assert.equal((await shownRows()).length, 4, 'the debug record is hidden');
  });
});
