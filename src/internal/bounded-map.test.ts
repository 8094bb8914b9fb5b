import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { BoundedMap, memoizeBounded } from './bounded-map.js';

describe('BoundedMap', () => {
  it('empties itself when a new key would pass the limit, and keeps the new entry', () => {
    const map = new BoundedMap<string, number>(2);
    map.set('a', 1).set('b', 2);
    map.set('b', 3);
    assert.deepEqual([...map], [['a', 1], ['b', 3]]);
    map.set('c', 4);
    assert.deepEqual([...map], [['c', 4]]);
  });

  it('memoizeBounded computes once per key, an undefined result included, and again after a reset', () => {
    const calls: string[] = [];
    const lookup = memoizeBounded(2, (key: string) => {
      calls.push(key);
      return key === 'none' ? undefined : key.length;
    });
    assert.equal(lookup('none'), undefined);
    assert.equal(lookup('none'), undefined);
    assert.equal(lookup('abc'), 3);
    assert.equal(lookup('abc'), 3);
    assert.deepEqual(calls, ['none', 'abc']);
    assert.equal(lookup('xy'), 2);
    assert.equal(lookup('none'), undefined);
    assert.deepEqual(calls, ['none', 'abc', 'xy', 'none']);
  });
});
