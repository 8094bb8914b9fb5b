import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { isNumericString, looseEquals } from './php-numeric.js';

describe('PHP 8 numeric strings', () => {
  it('reads numbers with whitespace around, decimals and exponents, as PHP 8 does', () => {
    // php -r 'var_dump(is_numeric(" 1"), is_numeric("1 "), is_numeric("1.0"), is_numeric(".5"), is_numeric("1e3"), is_numeric("1a"), is_numeric(""), is_numeric("0x1A"));'
    for (const text of [' 1', '1 ', '1.0', '.5', '1e3', '-2', '+3']) assert.equal(isNumericString(text), true, text);
    for (const text of ['1a', '', '0x1A', '1 2', '.']) assert.equal(isNumericString(text), false, text);
  });

  it('compares as == does: numerically when both are numeric, else as strings', () => {
    assert.equal(looseEquals('01', '1'), true);
    assert.equal(looseEquals('1e0', '1.0'), true);
    assert.equal(looseEquals('abc', 'ABC'), false);
    assert.equal(looseEquals('1a', '1'), false);
  });
});
