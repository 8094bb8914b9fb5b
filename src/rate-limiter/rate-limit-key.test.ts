import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { HttpException } from '../http/http-exception.js';
import { Request } from '../http/request.js';
import { accountKey, clientKey } from './rate-limit-key.js';
import { clientKey as exportedClientKey } from 'keel';

function post(body: string, type: string): Request {
  return new Request({ method: 'POST', target: '/login', headers: { 'content-type': type }, body: Buffer.from(body) });
}

describe('clientKey', () => {
  it('keys IPv4 per address and IPv4-mapped IPv6 as IPv4', () => {
    assert.equal(clientKey('198.51.100.9'), '198.51.100.9');
    assert.equal(clientKey('::ffff:198.51.100.9'), '198.51.100.9');
  });

  it('keys IPv6 per /56, so that one subscriber cannot rotate addresses around the limit', () => {
    assert.equal(clientKey('2001:db8:abcd:12ff::1'), '2001:db8:abcd:1200::/56');
    assert.equal(clientKey('2001:db8:abcd:1234:ffff::9'), clientKey('2001:db8:abcd:12aa::1'));
    assert.notEqual(clientKey('2001:db8:abcd:1300::1'), clientKey('2001:db8:abcd:1200::1'));
  });

  // A controller keying a limiter of its own by request.clientIp gave each IPv6 address its own quota, which
  // a client with a /64 went round by changing address: it keys as the routes' limiters do.
  it('is exported for the limiters an application consumes itself', () => {
    assert.equal(exportedClientKey('2001:db8:abcd:12ff::1'), exportedClientKey('2001:db8:abcd:1234:ffff::9'));
  });
});

describe('accountKey', () => {
  it('reads the field from a form or a JSON body, case-insensitively, hashed', async () => {
    const form = await accountKey(post('username=Alice&password=x', 'application/x-www-form-urlencoded'), 'username');
    const json = await accountKey(post('{"username":"alice"}', 'application/json'), 'username');
    assert.equal(form, json);
    assert.match(form!, /^[0-9a-f]{16}$/);
  });

  it('reads a JSON body whatever the case of its media type and the parameters after it', async () => {
    const expected = await accountKey(post('{"username":"alice"}', 'application/json'), 'username');
    for (const type of ['application/vnd.api+json; charset=utf-8', 'Application/JSON ; charset=UTF-8', 'application/problem+JSON;charset=utf-8']) {
      assert.equal(await accountKey(post('{"username":"alice"}', type), 'username'), expected, type);
    }
  });

  it('names no account when the field is missing or empty, or the body is no JSON or form', async () => {
    assert.equal(await accountKey(post('password=x', 'application/x-www-form-urlencoded'), 'username'), undefined);
    assert.equal(await accountKey(post('{"username":""}', 'application/json'), 'username'), undefined);
    assert.equal(await accountKey(post('{not json', 'application/json'), 'username'), undefined);
    assert.equal(await accountKey(post('username=a', 'text/plain'), 'username'), undefined);
  });

  it('fails with the error of a body that cannot be read (over the limit), so that no truncated body goes on', async () => {
    const tooLarge = new HttpException(413, { message: 'too large' });
    const request = new Request({ method: 'POST', target: '/login', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: { read: () => Promise.reject(tooLarge) } });
    await assert.rejects(accountKey(request, 'username'), tooLarge);
    await assert.rejects(request.body(), tooLarge);
  });
});
