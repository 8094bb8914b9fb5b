import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { findRedisUrlOptions, isRedisUrl, lowerRedisScheme } from './redis-url.js';

describe('isRedisUrl', () => {
  it('takes the forms the Redis client connects with', () => {
    for (const url of ['redis://127.0.0.1:6379', 'redis://cache', 'rediss://app:p%40ss@cache:6380/2', 'redis://:secret@[::1]:6379/', 'redis://cache:6379?db=3', 'REDIS://cache'])
      assert.equal(isRedisUrl(url), true, url);
  });

  it('refuses a database that is not a number, a bad port, no host or undecodable credentials', () => {
    for (const url of ['redis://127.0.0.1:6379/abc', 'redis://cache/1/2', 'redis://cache?db=x', 'redis://cache?enableOfflineQueue=false', 'redis://cache/0?password=pw', 'redis://127.0.0.1:notaport', 'redis://cache:70000', 'redis://:pw@', 'redis://:%E0@cache', 'redis:/cache', 'http://cache'])
      assert.equal(isRedisUrl(url), false, url);
  });
});

describe('findRedisUrlOptions', () => {
  it('lists the query parameters other than db, which the client would take over its options', () => {
    assert.deepEqual(findRedisUrlOptions('redis://cache?db=2&enableOfflineQueue=false&commandTimeout=1&commandTimeout=2'), ['enableOfflineQueue', 'commandTimeout']);
    assert.deepEqual(findRedisUrlOptions('redis://cache:6379/2?db=2'), []);
  });

  it('lists nothing of a URL that does not parse, where the text after a ? may be part of a password', () => {
    assert.deepEqual(findRedisUrlOptions('redis://:p?ss@cache:6379'), []);
  });
});

describe('lowerRedisScheme', () => {
  it('lowers the scheme alone, which the client reads case-sensitively for TLS', () => {
    assert.equal(lowerRedisScheme('REDISS://:PassWord@Cache:6380/2'), 'rediss://:PassWord@Cache:6380/2');
    assert.equal(lowerRedisScheme('Redis://cache'), 'redis://cache');
    assert.equal(lowerRedisScheme('memory'), 'memory');
  });
});
