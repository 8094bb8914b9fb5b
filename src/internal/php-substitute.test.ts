import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { headerText } from '../http/header-text.js';
import { substituteLikePhp } from './php-substitute.js';

// A header's bytes as node:http hands them over (latin1), read as headerText reads them.
const fromBytes = (hex: string): string => headerText(Buffer.from(hex, 'hex').toString('latin1'));
const shown = (text: string): string => substituteLikePhp(text).replaceAll('\ufffd', '?');

describe('substituteLikePhp', () => {
  it('writes one U+FFFD per sequence PHP\'s htmlspecialchars() reads as ill-formed, as the reference\'s error page shows a Referer', () => {
    // Bytes sent in a Referer, and the text the reference's page title shows for them.
    const cases: [string, string][] = [
      ['e9ff', '?'],
      ['e9ffe9e9a9f09f9878', '????x'],
      ['c3', '?'],
      ['808080', '???'],
      ['e08080', '?'],
      ['eda080', '?'],
      ['f4908080', '?'],
      ['c0af', '??'],
      ['f09f98', '?'],
      ['e9a98080', '\u9a40?'],
      ['f580', '??'],
      ['f0808080', '?'],
      ['c2c2a9', '?\u00a9'],
      ['e9a9', '?'],
      ['f09f', '?'],
      ['e0a0', '?'],
      ['ff', '?'],
      ['f09f98c3a9', '?\u00e9'],
      ['e1bf', '?'],
      ['c3a9e9', '\u00e9?'],
    ];
    for (const [hex, expected] of cases) assert.equal(shown(fromBytes(hex)), expected, hex);
  });

  it('leaves text without kept bytes as it is, surrogate pairs and other lone surrogates included', () => {
    for (const text of ['café', '\u{10080}', 'a\ud800b', '']) assert.equal(substituteLikePhp(text), text);
  });
});
