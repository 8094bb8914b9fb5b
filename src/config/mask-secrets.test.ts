import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { isSecretName, maskSecrets, maskTextSecrets } from './mask-secrets.js';

describe('isSecretName', () => {
  it('answers the same when asked again, whatever the case, keeping the profiler headers public', () => {
    for (let round = 0; round < 2; round++) {
      assert.equal(isSecretName('Authorization'), true);
      assert.equal(isSecretName('x-api-KEY'), true);
      assert.equal(isSecretName('APP_SECRET'), true);
      assert.equal(isSecretName('accept-language'), false);
      assert.equal(isSecretName('X-Debug-Token'), false);
      assert.equal(isSecretName('x-previous-debug-token'), false);
    }
  });

  it('stays right past the bound of remembered names (names come from clients)', () => {
    for (let i = 0; i < 3000; i++) assert.equal(isSecretName(`x-custom-${i}${i % 2 === 0 ? '-token' : ''}`), i % 2 === 0);
    assert.equal(isSecretName('cookie'), true);
  });
});

describe('maskSecrets', () => {
  it('masks the password of a URL under any key, as the Redis storage settings hold one', () => {
    const config = { profiler: { storage: 'redis://:s3cret@cache:6379/0' }, rateLimiterStorage: { url: 'rediss://app:p@ss@cache:6380' }, home: 'https://example.test/a:b@c' };
    assert.deepEqual(maskSecrets(config), { profiler: { storage: 'redis://:******@cache:6379/0' }, rateLimiterStorage: { url: 'rediss://app:******@cache:6380' }, home: 'https://example.test/a:b@c' });
    assert.equal(maskTextSecrets('redis://cache:6379'), 'redis://cache:6379');
    assert.equal(maskTextSecrets('redis://user@cache:6379'), 'redis://user@cache:6379');
  });

  it('masks a password given in the query of a URL (ioredis reads redis://host/0?password=…)', () => {
    assert.deepEqual(maskSecrets({ url: 'redis://127.0.0.1:6379/0?password=RLPW1&db=2' }), { url: 'redis://127.0.0.1:6379/0?password=******&db=2' });
    assert.deepEqual(maskSecrets({ APP_SECRET: '', API_TOKEN: 't' }), { APP_SECRET: '', API_TOKEN: '******' });
    assert.deepEqual(maskSecrets({ DB_PASS: 'p', 'smtp-pwd': 'p', AWS_CREDENTIALS: 'c', PASSTHROUGH: 'on', BYPASS_CACHE: '1' }), { DB_PASS: '******', 'smtp-pwd': '******', AWS_CREDENTIALS: '******', PASSTHROUGH: 'on', BYPASS_CACHE: '1' });
    // A mistyped scheme still names a password.
    assert.equal(maskTextSecrets('RATE_LIMIT_STORAGE="redis//:topsecret@h:6379"'), 'RATE_LIMIT_STORAGE="redis//:******@h:6379"');
  });
});
