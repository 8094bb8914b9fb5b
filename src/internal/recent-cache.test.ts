import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { RecentCache } from './recent-cache.js';

describe('RecentCache', () => {
  it('keys by identity and returns what set stored', () => {
    const cache = new RecentCache<object, string>(4);
    const a = {};
    assert.equal(cache.set(a, 'A'), 'A');
    assert.equal(cache.get(a), 'A');
    assert.equal(cache.get({}), undefined);
  });

  it('evicts the least recently used entry beyond its capacity, a hit counting as a use', () => {
    const cache = new RecentCache<string, number>(2);
    cache.set('a', 1);
    cache.set('b', 2);
    cache.get('a');
    cache.set('c', 3);
    assert.equal(cache.size, 2);
    assert.equal(cache.get('b'), undefined);
    assert.equal(cache.get('a'), 1);
    assert.equal(cache.get('c'), 3);
  });

  it('replaces the value of a key set again without growing', () => {
    const cache = new RecentCache<string, number>(2);
    cache.set('a', 1);
    cache.set('a', 2);
    assert.equal(cache.size, 1);
    assert.equal(cache.get('a'), 2);
  });

  it('refuses a capacity below one', () => {
    assert.throws(() => new RecentCache(0), RangeError);
    assert.throws(() => new RecentCache(1.5), RangeError);
  });
});
