import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { dumpYamlInline } from './yaml-inline.js';

describe('dumpYamlInline', () => {
  // Each expected text is what PHP printed for Yaml::dump(['k' => <value>], 0) with Symfony's Yaml component.
  const cases: [string, string][] = [
    ['plain', '{ k: plain }'],
    ['', "{ k: '' }"],
    ['An error occurred', "{ k: 'An error occurred' }"],
    ['https://tools.ietf.org/html/rfc2616#section-10', "{ k: 'https://tools.ietf.org/html/rfc2616#section-10' }"],
    ["it's", "{ k: 'it''s' }"],
    ['No', "{ k: 'No' }"],
    ['~', "{ k: '~' }"],
    ['123', "{ k: '123' }"],
    [' 1.5e3 ', "{ k: ' 1.5e3 ' }"],
    ['1_000', "{ k: '1_000' }"],
    ['0x1F', "{ k: '0x1F' }"],
    ['2024-01-02 03:04:05', "{ k: '2024-01-02 03:04:05' }"],
    ['-flag', "{ k: '-flag' }"],
    ['a\nb"c\\d', '{ k: "a\\nb\\"c\\\\d" }'],
    ['\u00a0nbsp', '{ k: "\\_nbsp" }'],
    ['bell\x07', '{ k: "bell\\a" }'],
    ['\x01', '{ k: !!binary AQ== }'],
    ['café😀', '{ k: café😀 }'],
    ['->', "{ k: '->' }"],
  ];
  for (const [value, expected] of cases) {
    it(`writes ${JSON.stringify(value)} as PHP does`, () => assert.equal(dumpYamlInline({ k: value }), expected));
  }

  it('writes lists in brackets, maps in braces and an empty array as {  }', () => {
    assert.equal(dumpYamlInline({ trace: [{ line: 3, args: [] }], ok: true, none: null }), '{ trace: [{ line: 3, args: {  } }], ok: true, none: null }');
  });
});
