import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { formatHttpDate } from './http-date.js';

describe('formatHttpDate', () => {
  it('writes the IMF-fixdate of a given time, to the second', () => {
    assert.equal(formatHttpDate(Date.UTC(1994, 10, 6, 8, 49, 37, 999)), 'Sun, 06 Nov 1994 08:49:37 GMT');
  });

  it('writes the current second, and a later one once it has started', async () => {
    const before = Math.floor(Date.now() / 1000);
    const first = Date.parse(formatHttpDate()) / 1000;
    assert.ok(first >= before && first <= Math.floor(Date.now() / 1000), `${first} is not the current second`);
    await new Promise((resolve) => setTimeout(resolve, 1100));
    const later = Date.parse(formatHttpDate()) / 1000;
    assert.ok(later > first, `${later} should be later than ${first}`);
    assert.ok(later <= Math.floor(Date.now() / 1000));
  });
});
