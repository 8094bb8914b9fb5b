import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { BoundedMap } from './bounded-map.js';

describe('BoundedMap', () => {
  it('empties itself when a new key would pass the limit, and keeps the new entry', () => {
    const map = new BoundedMap<string, number>(2);
    map.set('a', 1).set('b', 2);
    map.set('b', 3);
    assert.deepEqual([...map], [['a', 1], ['b', 3]]);
    map.set('c', 4);
    assert.deepEqual([...map], [['c', 4]]);
  });
});
