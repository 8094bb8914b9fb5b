import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { contrastRatio, rootColours } from '../../../test/helpers/css-contrast.js';
import { EXCEPTION_PAGE_CSS } from './exception-page.js';

// Text colour → the backgrounds it is drawn on.
const PAIRS: [string, string[]][] = [
  ['--color-text', ['--page-background', '--tab-background', '--code-background', '--trace-selected-background']],
  ['--color-muted', ['--page-background', '--tab-background', '--code-background']],
  ['--tab-active-color', ['--tab-active-background']],
];

describe('the debug page stylesheet', () => {
  for (const [scheme, colours] of Object.entries(rootColours(EXCEPTION_PAGE_CSS))) {
    it(`keeps its text at 4.5:1 or more against its backgrounds in the ${scheme} scheme`, () => {
      for (const [text, backgrounds] of PAIRS) {
        for (const background of backgrounds) {
          const ratio = contrastRatio(colours[text]!, colours[background]!);
          assert.ok(ratio >= 4.5, `${text} ${colours[text]} on ${background} ${colours[background]}: ${ratio.toFixed(2)}`);
        }
      }
    });
  }

  it('outlines the label of the focused tab, its radio being invisible', () => {
    for (const tab of ['tab-exceptions', 'tab-logs', 'tab-traces', 'tab-request']) {
      const rule = new RegExp(`#${tab}:focus-visible ~ \\.tab-navigation label\\[for="${tab}"\\][^{]*\\{[^}]*outline: 2px solid`);
      assert.match(EXCEPTION_PAGE_CSS, rule, tab);
    }
  });
});
