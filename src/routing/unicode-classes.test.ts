import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { unicodeClasses } from './unicode-classes.js';

// Whether the translated requirement matches the whole text, as a route matches a placeholder.
const test = (source: string, text: string) => new RegExp(`^(?:${unicodeClasses(source)})$`, 'su').test(text);

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
    assert.equal(test('[a-z\\-]+\\_\\d', 'a-b_1'), true);
    assert.equal(test('\\pL+', 'élan'), true);
    assert.equal(test('caf\\x{e9}', 'café'), true);
    assert.equal(test('a\\hb', 'a\u3000b'), true);
  });

  it('matches spaces as PCRE does: NEL and U+180E are spaces, the byte-order mark is not', () => {
    // php -r 'var_dump(preg_match("/^\\s$/u", "\u{85}"), preg_match("/^\\s$/u", "\u{180E}"), preg_match("/^\\S$/u", "\u{FEFF}"));' → 1, 1, 1
    assert.equal(test('\\s', '\u0085'), true);
    assert.equal(test('\\s', '\u180e'), true);
    assert.equal(test('\\s', '\ufeff'), false);
    assert.equal(test('\\S', '\ufeff'), true);
    assert.equal(test('\\s+', ' \t\n'), true);
    assert.equal(test('[\\s,]+', ', \u0085'), true);
  });

  it('matches what PHP matches in UTF mode', () => {
    // php -r 'var_dump(preg_match("/^\\d+$/u", "١٢"), preg_match("/^\\w+$/u", "élan_2"), preg_match("/^\\W$/u", "é"));' → 1, 1, 0
    assert.equal(test('\\d+', '١٢'), true);
    assert.equal(test('\\w+', 'élan_2'), true);
    assert.equal(test('\\W', 'é'), false);
    assert.equal(test('\\d+', '12a'), false);
  });
});
