import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import { demoInBrowser } from '../helpers/demo-in-browser.js';

const PHONE = { width: 390, height: 800 };
const DESKTOP = { width: 1280, height: 900 };

interface TableColumns {
  heading: string;
  table: number;
  /** The width of the name column, and the widest name's text when drawn on one line. */
  names: number;
  widestName: number;
  values: number;
}

describe('the request panel name/value tables', () => {
  const ui = demoInBrowser('test-artifacts/profiler-tables');
  let longValue: string;
  let longNames: string;

  before(async () => {
    const { page } = ui.browser;
    longValue = (await page.goto(`${ui.origin}/about?q=${'a'.repeat(1500)}`))!.headers()['x-debug-token']!;
    await page.setExtraHTTPHeaders({ [`x-${'forwarded-by-the-edge-cache-'.repeat(10)}id`]: 'edge-7' });
    longNames = (await page.goto(`${ui.origin}/about?${'p'.repeat(300)}=1&q=short`))!.headers()['x-debug-token']!;
    await page.setExtraHTTPHeaders({});
  });

  // Each table of the panel that follows a heading, with the widths of the table and its two columns.
  const measureTables = () =>
    ui.browser.page.locator('#panel h3 + table').evaluateAll((tables) =>
      tables.map((table) => {
        const names = [...table.querySelectorAll('tbody th')];
        const widestName = Math.max(
          ...names.map((name) => {
            const probe = document.createElement('span');
            probe.style.whiteSpace = 'nowrap';
            probe.textContent = name.textContent;
            name.append(probe);
            const width = probe.getBoundingClientRect().width;
            probe.remove();
            return width;
          }),
        );
        return {
          heading: table.previousElementSibling!.textContent ?? '',
          table: table.getBoundingClientRect().width,
          names: names[0]!.getBoundingClientRect().width,
          widestName,
          values: table.querySelector('tbody td')!.getBoundingClientRect().width,
        };
      }),
    ) as Promise<TableColumns[]>;

  it('gives the names the width they need and the values the rest, beside a long value', async () => {
    const { page } = ui.browser;
    for (const viewport of [DESKTOP, PHONE]) {
      await page.setViewportSize(viewport);
      await page.goto(`${ui.origin}/_profiler/${longValue}?panel=request`);
      const tables = await measureTables();
      assert.ok(tables.some(({ heading }) => heading === 'Request Attributes'));
      for (const { heading, names, widestName, values } of tables) {
        // The cell's padding (8 px each side) and border beside its text.
        assert.ok(names <= widestName + 20, `${heading} at ${viewport.width} px: names ${names} px for text of ${widestName} px`);
        if (viewport === DESKTOP) assert.ok(values >= names, `${heading} at ${viewport.width} px: values ${values} px beside names ${names} px`);
      }
      await ui.browser.screenshot(`request-${viewport.width}`);
    }
    await page.setViewportSize(DESKTOP);
  });

  it('wraps a name hundreds of characters long within a share of the table, never past the panel', async () => {
    const { page } = ui.browser;
    for (const viewport of [DESKTOP, PHONE]) {
      await page.setViewportSize(viewport);
      await page.goto(`${ui.origin}/_profiler/${longNames}?panel=request`);
      const overflow = await page.evaluate(() => {
        const panel = document.querySelector('#panel')!;
        return { page: document.documentElement.scrollWidth - document.documentElement.clientWidth, panel: panel.scrollWidth - panel.clientWidth };
      });
      assert.deepEqual(overflow, { page: 0, panel: 0 }, `at ${viewport.width} px`);
      for (const { heading, table, names, values } of await measureTables()) {
        assert.ok(names <= table * 0.45, `${heading} at ${viewport.width} px: names ${names} px of ${table} px`);
        assert.ok(values >= table * 0.5, `${heading} at ${viewport.width} px: values ${values} px of ${table} px`);
      }
      await ui.browser.screenshot(`long-names-${viewport.width}`);
    }
    await page.setViewportSize(DESKTOP);
  });

  it('saw no console error and no failed asset request', () => {
    assert.deepEqual(ui.browser.problems, []);
  });
});
