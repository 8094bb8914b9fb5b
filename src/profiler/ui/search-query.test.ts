import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { parseSearchQuery } from './search-query.js';

const bounds = (search: string) => {
  const { start, end } = parseSearchQuery(new URLSearchParams(search));
  return { start, end };
};

describe('parseSearchQuery', () => {
  it('reads a day (the form sends one) as the whole day, end inclusive', () => {
    assert.deepEqual(bounds('start=2026-11-23&end=2026-11-23'), { start: 1_795_392_000, end: 1_795_392_000 + 86_399 });
  });

  it('reads a date with a time as that instant, and a number as Unix time, as the reference does', () => {
    assert.deepEqual(bounds('start=2026-11-23T22:00:00Z&end=2026-11-23T23:00:00Z'), { start: 1_795_471_200, end: 1_795_474_800 });
    assert.deepEqual(bounds('start=1795471200&end=%201795474800%20'), { start: 1_795_471_200, end: 1_795_474_800 });
  });

  it('leaves out a bound it cannot read', () => {
    assert.deepEqual(bounds('start=yesterday&end='), { start: undefined, end: undefined });
  });

  it('reads the limit as PHP reads a number, between 1 and 500, 10 when it is none', () => {
    const limit = (value: string) => parseSearchQuery(new URLSearchParams({ limit: value })).limit;
    assert.deepEqual(['1e3', '5abc', ' 7 ', '12.9', '0', '-3', 'ten', ''].map(limit), [500, 5, 7, 12, 10, 10, 10, 10]);
  });
});
