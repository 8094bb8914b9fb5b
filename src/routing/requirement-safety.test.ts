import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { findRequirementProblem, sanitizeRequirement, toNonCapturing, withoutLookarounds } from './requirement-safety.js';

describe('findRequirementProblem', () => {
  it('accepts the usual requirements', () => {
    for (const regex of ['\\d+', '[a-z0-9-]+', 'en|fr', '.+', '(?:\\d{1,3}\\.){3}\\d{1,3}', '(\\d{1,3}\\.)+', '[(+*)]+', '\\(a+\\)+']) {
      assert.equal(findRequirementProblem(regex), undefined, regex);
    }
  });

  it('refuses a repeated group that contains an unbounded quantifier', () => {
    for (const regex of ['(a+)+', '(?:\\d*)*', '(a|b+){2,}', '((ab)*c)+', '(x{2,})+']) {
      assert.match(findRequirementProblem(regex) ?? '', /nested quantifiers/, regex);
    }
  });

  it('accepts a repeated group whose every repetition starts with a separator nothing else in it matches, as Symfony\'s Requirement::ASCII_SLUG', () => {
    for (const regex of ['[A-Za-z0-9]+(?:-[A-Za-z0-9]+)*', '\\d+(?:\\.\\d+)*', '[a-z]+(?:/[a-z]+)*', '(?:_[a-z]+)*', '\\w+(?:-\\w+)*']) {
      assert.equal(findRequirementProblem(regex), undefined, regex);
    }
    // The separator matched again inside (as written, in a class, by a range, by . or \W, `_` by \w), or a word character as separator.
    for (const regex of ['(?:-[\\w-]+)*', '(?:-[a-z-]+)*', '(?:-[!-z]+)*', '(?:-.+)*', '(?:-\\W+)*', '(?:_\\w+)*', '(?:a[a-z]+)*', '(?:-[^a]+)*', '(?:-[a-z]+|x)*', '(?:-?\\d+)+', '(?:-*[a-z]+)*', '(?:\\.{0,1}\\d+)+']) {
      assert.notEqual(findRequirementProblem(regex), undefined, regex);
    }
  });

  it('refuses a repeated group holding alternatives or ending in a repeated atom: they backtrack exponentially too', () => {
    for (const regex of ['(?:\\w|\\d)+', '(a|a)+', '(?:a{1,5})+', '(?:[a-z0-9]|[a-z])+', '(?:x|y){2,}', '((?:a|b)c)+']) {
      assert.match(findRequirementProblem(regex) ?? '', /alternatives/, regex);
    }
    for (const regex of ['(?:en|fr)', '(?:a|b){3}', '(?:\\d{1,3}\\.)+\\d{1,3}', '(?:-?\\d)+', '(?:[a-z]{2}-)+']) assert.equal(findRequirementProblem(regex), undefined, regex);
  });

  it('refuses two unbounded repetitions that can match the same characters in a row or with only optional atoms between them, and lets disjoint ones be', () => {
    for (const regex of ['\\d+\\d+', '\\d+\\d+\\d+\\d+', 'a+a*', '\\w+\\d*', '[\\d]+[0-9]+', '\\p{L}+\\p{L}*', '[a-z]+?[a-z]+', '.+(?:x[a-z])*', '\\d+-?\\d+', '\\w+\\.?\\w+', 'a*b?a*', '[^/]+/?[^/]+', '\\d+(?:st|nd|rd|th)?\\d*', '[a-z]+\\d*[a-z]*', '\\d+\\D?\\d+', '\\d+-{0,3}\\d+']) {
      assert.match(findRequirementProblem(regex) ?? '', /two unbounded repetitions in a row/, regex);
    }
    for (const regex of ['[a-z]+\\d+', '\\p{L}+\\p{N}+', '\\d+-\\d+', 'a+b+', '\\d{4}\\d{2}', '\\x{e9}+\\x{e8}+', '[A-Za-z0-9]+(?:-[A-Za-z0-9]+)*', '\\d+-\\d+?', '\\d+?-\\d+', '[a-z]+-?\\d+', '\\d+(?:-\\d+)?', '\\d+(?:\\.\\d+)?[a-z]*', '[a-z]+(?:-[a-z]+)*\\.?\\d*']) {
      assert.equal(findRequirementProblem(regex), undefined, regex);
    }
  });

  it('refuses back-references', () => {
    assert.match(findRequirementProblem('(a)\\1') ?? '', /back-references/);
    assert.match(findRequirementProblem('(?<x>a)\\k<x>') ?? '', /back-references/);
  });
});

describe('toNonCapturing', () => {
  it('turns plain and named groups into non-capturing ones, leaving the rest alone', () => {
    assert.equal(toNonCapturing('(a|b)-(?<x>c)(?=d)(?:e)[(]\\('), '(?:a|b)-(?:c)(?=d)(?:e)[(]\\(');
  });
});

describe('sanitizeRequirement', () => {
  it('strips the anchors a route regex adds itself', () => {
    assert.equal(sanitizeRequirement('^\\d+$'), '\\d+');
    assert.equal(sanitizeRequirement('\\A\\d+\\z'), '\\d+');
    assert.equal(sanitizeRequirement('a\\$'), 'a\\$');
  });
});

describe('withoutLookarounds', () => {
  it('drops lookaheads and lookbehinds, nested groups, classes and escapes included, and keeps the rest', () => {
    assert.equal(withoutLookarounds('(?!admin$)[a-z]+'), '[a-z]+');
    assert.equal(withoutLookarounds('a(?=b(c|d))e(?<=x)(?<!y)f'), 'aef');
    assert.equal(withoutLookarounds('(?![()])[(]+'), '[(]+');
    assert.equal(withoutLookarounds('\\(?=x(?:y)'), '\\(?=x(?:y)');
    assert.equal(withoutLookarounds('[a-z]+'), '[a-z]+');
  });
});
