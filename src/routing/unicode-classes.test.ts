import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { unicodeClasses } from './unicode-classes.js';

// Whether each translated requirement matches its whole text, as a route matches a placeholder.
function assertMatches(cases: [source: string, text: string, matches: boolean][]): void {
  for (const [source, text, matches] of cases) assert.equal(new RegExp(`^(?:${unicodeClasses(source)})$`, 'su').test(text), matches, `${source} on ${JSON.stringify(text)}`);
}

describe('unicodeClasses', () => {
  it('spells \\d, \\D, \\w and \\W as the Unicode properties PCRE matches them with, in and out of classes', () => {
    assert.equal(unicodeClasses('\\d+'), '\\p{Nd}+');
    assert.equal(unicodeClasses('\\D'), '\\P{Nd}');
    assert.equal(unicodeClasses('[\\w.-]+'), '[\\p{L}\\p{N}_.-]+');
    assert.equal(unicodeClasses('\\w+\\W'), '[\\p{L}\\p{N}_]+[^\\p{L}\\p{N}_]');
  });

  it('leaves escaped backslashes, other escapes and plain text alone', () => {
    for (const source of ['\\\\d', '\\.', '\\p{Lu}', '[^/]+', 'en|fr', '[^\\W]', '[a\\-z]', '\\/']) assert.equal(unicodeClasses(source), source);
  });

  it('reads the PCRE escapes JavaScript refuses: escaped punctuation, \\pL, \\x{…}, \\h', () => {
    assert.equal(unicodeClasses('[a-z]\\-\\_\\#\\@'), '[a-z]-_#@');
    assert.equal(unicodeClasses('\\pL+\\PN'), '\\p{L}+\\P{N}');
    assert.equal(unicodeClasses('caf\\x{e9}'), 'caf\\u{e9}');
    assertMatches([
      ['[a-z\\-]+\\_\\d', 'a-b_1', true],
      ['\\pL+', 'élan', true],
      ['caf\\x{e9}', 'café', true],
      ['a\\hb', 'a\u3000b', true],
    ]);
  });

  it('reads PCRE\'s script properties, their negation and L&, which JavaScript spells otherwise', () => {
    assert.equal(unicodeClasses('[\\p{Cyrillic}\\d-]+'), '[\\p{Script=Cyrillic}\\p{Nd}-]+');
    assert.equal(unicodeClasses('\\p{Han}\\P{Greek}\\p{L&}\\p{^Lu}\\p{Lu}'), '\\p{Script=Han}\\P{Script=Greek}\\p{LC}\\P{Lu}\\p{Lu}');
    assertMatches([
      ['[\\p{Cyrillic}-]+', 'привет-мир', true],
      ['\\p{Cyrillic}+', 'privet', false],
      ['\\p{Han}{2}', '漢字', true],
      ['\\p{^Lu}', 'a', true],
      ['\\p{^Lu}', 'A', false],
    ]);
  });

  it('matches spaces as PCRE does: NEL and U+180E are spaces, the byte-order mark is not', () => {
    // php -r 'var_dump(preg_match("/^\\s$/u", "\u{85}"), preg_match("/^\\s$/u", "\u{180E}"), preg_match("/^\\S$/u", "\u{FEFF}"));' → 1, 1, 1
    assertMatches([
      ['\\s', '\u0085', true],
      ['\\s', '\u180e', true],
      ['\\s', '\ufeff', false],
      ['\\S', '\ufeff', true],
      ['\\s+', ' \t\n', true],
      ['[\\s,]+', ', \u0085', true],
    ]);
  });

  it('matches what PHP matches in UTF mode', () => {
    // php -r 'var_dump(preg_match("/^\\d+$/u", "١٢"), preg_match("/^\\w+$/u", "élan_2"), preg_match("/^\\W$/u", "é"));' → 1, 1, 0
    assertMatches([
      ['\\d+', '١٢', true],
      ['\\w+', 'élan_2', true],
      ['\\W', 'é', false],
      ['\\d+', '12a', false],
    ]);
  });

  it('reads \\v as PCRE\'s vertical spaces, where JavaScript\'s is the vertical tab alone', () => {
    assertMatches([
      ['a\\vb', 'a\nb', true],
      ['a\\vb', 'a\rb', true],
      ['a\\vb', 'a\u2028b', true],
      ['a\\vb', 'a b', false],
      ['a\\Vb', 'a b', true],
      ['a\\Vb', 'a\nb', false],
      ['[\\v]', '\u0085', true],
    ]);
  });

  it('reads \\b and \\B between Unicode word characters, as PCRE in UTF mode does, and \\b in a class as a backspace', () => {
    assertMatches([
      ['\\bcaf.\\b.*', 'café', true],
      ['\\bcaf.\\b.*', 'cafés', false],
      ['caf.\\B.+', 'cafés', true],
      ['[\\b]', '\b', true],
    ]);
  });
});
