import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { demoInBrowser } from '../helpers/demo-in-browser.js';

// A frame of an anonymous function has no name to show: its file and line are the whole summary, on the
// line of the summary's marker, as a named frame's name is, not under an empty first line.
describe('stack frames without a function name', () => {
  const ui = demoInBrowser('test-artifacts/unnamed-frames');

  // How far below its summary's top each frame's first text starts, in px: a named frame's name, an unnamed
  // frame's file path.
  async function firstLineOffsets(): Promise<{ named: number[]; unnamed: number[] }> {
    return ui.browser.page.evaluate(() => {
      const offsets = { named: [] as number[], unnamed: [] as number[] };
      for (const summary of document.querySelectorAll('details.trace-line > summary')) {
        const name = summary.querySelector('.trace-method');
        const first = name ?? summary.querySelector('.trace-file-path')!;
        (name === null ? offsets.unnamed : offsets.named).push(first.getBoundingClientRect().top - summary.getBoundingClientRect().top);
      }
      return offsets;
    });
  }

  async function assertOnMarkerLine(where: string): Promise<void> {
    const { named, unnamed } = await firstLineOffsets();
    assert.ok(named.length > 0 && unnamed.length > 0, `${where}: the failure of /boom passes through named and anonymous functions`);
    const line = Math.max(...named);
    assert.ok(unnamed.every((offset) => offset <= line + 2), `${where}: names start ${line} px down, unnamed frames' paths ${unnamed.join(', ')}`);
  }

  it('shows the file path on the marker line on the debug page and in the exception panel', async () => {
    const { page } = ui.browser;
    ui.browser.expectErrorDocument(`${ui.origin}/boom`);
    const response = await page.goto(`${ui.origin}/boom`);
    await assertOnMarkerLine('debug page');
    await page.goto(`${ui.origin}/_profiler/${response!.headers()['x-debug-token']}?panel=exception`);
    await assertOnMarkerLine('exception panel');
  });

  it('saw no console error and no failed asset request', () => {
    assert.deepEqual(ui.browser.problems, []);
  });
});
