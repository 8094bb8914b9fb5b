import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { contrastRatio, rootColours } from '../../../test/helpers/css-contrast.js';
import { findProfilerAsset } from './profiler-assets.js';

const CSS = findProfilerAsset('profiler.css')!.body;

// Text colour → the backgrounds it is drawn on: the page, the summary and tables, their headers, source
// excerpts and their selected line, the routing trace's rows, the storage warning, badges, buttons, fields.
const TEXT: [string, string[]][] = [
  ['--text', ['--page-background', '--panel-background', '--table-header', '--code-background', '--trace-selected-background', '--match-background', '--almost-background', '--storage-warning-background']],
  ['--muted', ['--page-background', '--panel-background', '--code-background', '--field-background']],
  ['--link', ['--page-background', '--panel-background', '--match-background', '--almost-background', '--storage-warning-background']],
  ['--error', ['--page-background', '--panel-background']],
  ['--warning', ['--panel-background']],
  ['--header-text', ['--header-background']],
  ['--selected-text', ['--selected-background']],
  ['--badge-text', ['--badge-background']],
  ['--status-text', ['--error-background', '--warning-background']],
  ['--button-text', ['--button-background']],
  ['--field-text', ['--field-background']],
];
// Focus outlines and the timeline's bars are no text: 3:1 against what surrounds them (WCAG 1.4.11).
const NON_TEXT: [string, string[]][] = [
  ['--focus', ['--page-background', '--panel-background']],
  ['--link', ['--panel-background']],
  ['--error', ['--panel-background']],
  ['--success', ['--panel-background']],
];

function assertContrast(colours: Record<string, string>, pairs: [string, string[]][], minimum: number): void {
  for (const [foreground, backgrounds] of pairs) {
    for (const background of backgrounds) {
      const ratio = contrastRatio(colours[foreground] ?? `missing ${foreground}`, colours[background] ?? `missing ${background}`);
      assert.ok(ratio >= minimum, `${foreground} ${colours[foreground]} on ${background} ${colours[background]}: ${ratio.toFixed(2)}`);
    }
  }
}

describe('the profiler stylesheet', () => {
  const schemes = rootColours(CSS);

  for (const [scheme, colours] of Object.entries(schemes)) {
    it(`keeps its text at 4.5:1 or more against its backgrounds in the ${scheme} scheme`, () => {
      assertContrast(colours, TEXT, 4.5);
    });

    it(`keeps focus outlines and timeline bars at 3:1 or more in the ${scheme} scheme`, () => {
      assertContrast(colours, NON_TEXT, 3);
    });
  }

  it('turns dark where the system prefers a dark scheme', () => {
    const { light, dark } = schemes;
    for (const background of ['--page-background', '--panel-background', '--table-header', '--code-background']) {
      assert.ok(contrastRatio(dark[background]!, '#000') < contrastRatio(light[background]!, '#000') / 4, `${background} is dark: ${dark[background]}`);
    }
  });

  it('draws every colour through a custom property, so that both schemes switch it', () => {
    const rules = CSS.replace(/:root \{[^}]*\}/g, '');
    assert.deepEqual(rules.match(/#[0-9a-f]{3,6}\b|rgba?\(|hsla?\(/gi) ?? [], []);
  });
});
