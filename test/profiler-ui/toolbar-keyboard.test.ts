import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { demoInBrowser } from '../helpers/demo-in-browser.js';

describe('the toolbar and the keyboard', () => {
  const ui = demoInBrowser('test-artifacts/profiler-keyboard');

  // Tabs through the page from its top, and lists each focused element of the page (not of the bar) that
  // the fixed bar hides, wholly or in part.
  async function focusHiddenByTheBar(stops: number): Promise<string[]> {
    const { page } = ui.browser;
    ui.browser.expectErrorDocument(`${ui.origin}/boom`);
    await page.goto(`${ui.origin}/boom`);
    const hidden: string[] = [];
    for (let stop = 0; stop < stops; stop++) {
      await page.keyboard.press('Tab');
      const under = await page.evaluate(() => {
        const focused = document.activeElement as HTMLElement | null;
        const bar = document.querySelector('.sf-toolbar');
        if (focused === null || focused === document.body || bar === null || bar.contains(focused) || focused.matches('.tabs > input')) return undefined;
        const box = focused.getBoundingClientRect();
        return box.bottom > bar.getBoundingClientRect().top ? `${focused.tagName} ${focused.textContent?.trim().slice(0, 40)}` : undefined;
      });
      if (under !== undefined) hidden.push(under);
    }
    return hidden;
  }

  for (const [name, viewport] of [['a desktop', { width: 1280, height: 900 }], ['a phone', { width: 390, height: 800 }]] as const) {
    it(`scrolls each element the keyboard focuses above the bar on ${name}`, async () => {
      await ui.browser.page.setViewportSize(viewport);
      assert.deepEqual(await focusHiddenByTheBar(40), []);
    });
  }

  it('saw no console error and no failed asset request', () => {
    assert.deepEqual(ui.browser.problems, []);
  });
});
