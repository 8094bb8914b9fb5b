import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { parseSearchQuery } from './search-query.js';

// 2026-11-23T22:00:00Z
const NOW = 1_795_471_200_000;
const bounds = (search: string) => {
  const { start, end } = parseSearchQuery(new URLSearchParams(search), NOW);
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

  it('reads the words and offsets from now PHP reads, @ before Unix time and d.m.Y days', () => {
    assert.deepEqual(bounds('start=yesterday&end=today'), { start: 1_795_305_600, end: 1_795_392_000 });
    assert.deepEqual(bounds('start=-1%20hour&end=%2B2%20days'), { start: 1_795_467_600, end: 1_795_644_000 });
    assert.deepEqual(bounds('start=3%20weeks%20ago&end=now'), { start: 1_793_656_800, end: 1_795_471_200 });
    assert.deepEqual(bounds('start=@1000000000&end=23.11.2026'), { start: 1_000_000_000, end: 1_795_392_000 + 86_399 });
  });

  it('leaves out a bound it cannot read, and time 0, which the reference takes for none', () => {
    assert.deepEqual(bounds('start=someday&end='), { start: undefined, end: undefined });
    assert.deepEqual(bounds('start=0&end=@0'), { start: undefined, end: undefined });
  });

  it('leaves out text that is no date, and dates without a year, rather than reading them in 2001', () => {
    const start = (value: string) => bounds(new URLSearchParams({ start: value }).toString()).start;
    // The reference's DateTime refuses the first ones; it reads `Nov 23` and `3/4` in the current year.
    for (const value of ['foo 1', '1 2', 'x2026-11-23', '2026-11-23 junk', '2026-13-01', '32.1.2026', '2026-11-23T25:00', '1e3', 'Nov 23', '3/4']) {
      assert.equal(start(value), undefined, value);
    }
  });

  it('reads a Unix time with decimals as its whole second, as PHP reads @1795600000.5', () => {
    assert.deepEqual(bounds('start=1795600000.5&end=@1795600000.25'), { start: 1_795_600_000, end: 1_795_600_000 });
    assert.deepEqual(bounds('start=0.5'), { start: undefined, end: undefined });
  });

  it('reads a date with a time and no zone in UTC, whatever the time zone the process runs in', () => {
    const zone = process.env.TZ;
    process.env.TZ = 'Europe/Paris';
    try {
      assert.deepEqual(bounds('start=2026-11-23T00:00&end=2026-11-23%2022:00:30'), { start: 1_795_392_000, end: 1_795_471_230 });
      assert.deepEqual(bounds('start=2026-11-23T00:00%2B01:00&end=2026-11-23T00:00-0530'), { start: 1_795_388_400, end: 1_795_411_800 });
    } finally {
      if (zone === undefined) delete process.env.TZ;
      else process.env.TZ = zone;
    }
  });

  it('takes a text criterion of 0 for none, as PHP tests the string 0 false', () => {
    const { ip, method, statusCode, url } = parseSearchQuery(new URLSearchParams('ip=0&method=0&status_code=0&url=0'));
    assert.deepEqual({ ip, method, statusCode, url }, { ip: undefined, method: undefined, statusCode: undefined, url: undefined });
    // Only the string 0 itself: `!0` excludes URLs holding a 0, `00` and ` 0` are criteria.
    const other = parseSearchQuery(new URLSearchParams('ip=00&status_code=%200&url=!0'));
    assert.deepEqual([other.ip, other.statusCode, other.url], ['00', ' 0', '!0']);
  });

  it('takes the last value of a parameter given twice, as PHP does', () => {
    assert.equal(parseSearchQuery(new URLSearchParams('limit=5&limit=20')).limit, 20);
    assert.equal(parseSearchQuery(new URLSearchParams('url=a&url=b')).url, 'b');
  });

  it('reads the limit as PHP reads a number, between 1 and 500, 10 when it is none', () => {
    const limit = (value: string) => parseSearchQuery(new URLSearchParams({ limit: value })).limit;
    assert.deepEqual(['1e3', '5abc', ' 7 ', '12.9', '0', '-3', 'ten', ''].map(limit), [500, 5, 7, 12, 10, 10, 10, 10]);
    // Forms JavaScript's Number() reads and PHP does not: their leading digits, `0`, so the default.
    assert.deepEqual(['0x1A', '0b11', '0o7', 'Infinity', '.5e1'].map(limit), [10, 10, 10, 10, 5]);
  });
});
