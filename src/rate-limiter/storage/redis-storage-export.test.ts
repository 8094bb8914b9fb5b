import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { RedisStorage } from 'keel/redis-storage';

// The core's index leaves the Redis storage out so that it never loads ioredis; an application that hands
// keel a Redis client of its own imports the storage from this subpath of the installed package.
describe('the keel/redis-storage subpath', () => {
  it('exports the RedisStorage class', () => {
    assert.equal(typeof RedisStorage, 'function');
    assert.equal(RedisStorage.name, 'RedisStorage');
  });
});
