import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { unicodeClasses } from './unicode-classes.js';

describe('unicodeClasses', () => {
  it('spells \\d, \\D, \\w and \\W as the Unicode properties PCRE matches them with, in and out of classes', () => {
    assert.equal(unicodeClasses('\\d+'), '\\p{Nd}+');
    assert.equal(unicodeClasses('\\D'), '\\P{Nd}');
    assert.equal(unicodeClasses('[\\w.-]+'), '[\\p{L}\\p{N}_.-]+');
    assert.equal(unicodeClasses('\\w+\\W'), '[\\p{L}\\p{N}_]+[^\\p{L}\\p{N}_]');
  });

  it('leaves escaped backslashes, other escapes and plain text alone', () => {
    for (const source of ['\\\\d', '\\.', '\\p{Lu}', '[^/]+', 'en|fr', '\\s+', '[^\\W]']) assert.equal(unicodeClasses(source), source);
  });

  it('matches what PHP matches in UTF mode', () => {
    // php -r 'var_dump(preg_match("/^\\d+$/u", "١٢"), preg_match("/^\\w+$/u", "élan_2"), preg_match("/^\\W$/u", "é"));' → 1, 1, 0
    const test = (source: string, text: string) => new RegExp(`^(?:${unicodeClasses(source)})$`, 'su').test(text);
    assert.equal(test('\\d+', '١٢'), true);
    assert.equal(test('\\w+', 'élan_2'), true);
    assert.equal(test('\\W', 'é'), false);
    assert.equal(test('\\d+', '12a'), false);
  });
});
