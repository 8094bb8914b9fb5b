import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { median, pairedRatio, pairedRatios, percentile, relativeSpread, slope } from './stats.js';

describe('median and percentile', () => {
  it('takes the middle value of an odd list and the mean of the two middle ones of an even list', () => {
    assert.equal(median([5, 1, 3]), 3);
    assert.equal(median([4, 1, 3, 2]), 2.5);
  });

  it('interpolates between closest ranks and leaves the input unsorted', () => {
    const values = [40, 10, 30, 20];
    assert.equal(percentile(values, 0), 10);
    assert.equal(percentile(values, 100), 40);
    assert.equal(percentile(values, 25), 17.5);
    assert.deepEqual(values, [40, 10, 30, 20]);
  });

  it('is NaN for no values', () => {
    assert.ok(Number.isNaN(median([])));
  });
});

describe('pairedRatio', () => {
  it('takes the median of the ratios of runs made side by side', () => {
    // Run 2 was slow for both: its ratio is still 2, and the median ignores the odd run 3.
    assert.equal(pairedRatio([2, 20, 9], [1, 10, 1]), 2);
  });

  it('skips pairs whose denominator is zero and stops at the shorter list', () => {
    assert.equal(pairedRatio([3, 4, 5], [0, 2]), 2);
  });

  it('gives the ratios themselves in the order of the runs', () => {
    assert.deepEqual(pairedRatios([2, 20, 9, 7], [1, 10, 1, 0]), [2, 2, 9]);
  });
});

describe('relativeSpread', () => {
  it('is the range divided by the median', () => {
    assert.equal(relativeSpread([90, 100, 110]), 0.2);
    assert.equal(relativeSpread([0, 0]), 0);
  });
});

describe('slope', () => {
  it('fits a least-squares line', () => {
    assert.equal(slope([0, 1, 2, 3], [1, 3, 5, 7]), 2);
    assert.equal(slope([1], [1]), 0);
  });
});
