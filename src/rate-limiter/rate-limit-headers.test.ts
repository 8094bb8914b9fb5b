import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { createTooManyRequests, RateLimit, type RateLimitInit } from './rate-limit.js';
import { bindingLimit, rateLimitHeaders } from './rate-limit-headers.js';

const AT = 1_800_000_000.4;
function limit(init: Partial<RateLimitInit>): RateLimit {
  return new RateLimit({ name: 'default', accepted: true, remaining: 10, limit: 50, retryAfter: Math.floor(AT), resetAt: AT + 17.2, at: AT, window: 30, ...init });
}

describe('rateLimitHeaders', () => {
  it('sends the reference X-RateLimit-* headers, then the IETF draft structured fields', () => {
    assert.deepEqual(rateLimitHeaders([limit({})]), [
      ['X-RateLimit-Remaining', '10'],
      ['X-RateLimit-Retry-After', '0'],
      ['X-RateLimit-Limit', '50'],
      ['RateLimit-Policy', '"default";q=50;w=30'],
      ['RateLimit', '"default";r=10;t=18'],
    ]);
  });

  // A 16-digit quota, the largest the settings take, made each field invalid as a whole (RFC 8941 §3.3.1).
  it('states a quota, window, remaining or reset past 15 digits as the largest structured-field integer', () => {
    const large = limit({ limit: 1_801_439_850_948_198, remaining: 1_801_439_850_948_197, window: 54_043_195_528_445_940, resetAt: AT + 1e22 });
    const headers = new Map(rateLimitHeaders([large]));
    assert.equal(headers.get('RateLimit-Policy'), '"default";q=999999999999999;w=999999999999999');
    assert.equal(headers.get('RateLimit'), '"default";r=999999999999999;t=999999999999999');
    assert.equal(headers.get('X-RateLimit-Limit'), '1801439850948198');
  });

  it('adds Retry-After on a refusal, from the refused limiter, and lists every limiter in the IETF fields', () => {
    const refused = limit({ name: 'sensitive', accepted: false, remaining: 0, limit: 20, retryAfter: Math.floor(AT) + 28 });
    const headers = rateLimitHeaders([limit({ remaining: 3 }), refused], { retryAfter: true });
    assert.deepEqual(headers.slice(0, 4), [['X-RateLimit-Remaining', '0'], ['X-RateLimit-Retry-After', '28'], ['X-RateLimit-Limit', '20'], ['Retry-After', '28']]);
    assert.deepEqual(headers.slice(4), [
      ['RateLimit-Policy', '"default";q=50;w=30, "sensitive";q=20;w=30'],
      ['RateLimit', '"default";r=3;t=18, "sensitive";r=0;t=18'],
    ]);
  });

  it('states the longer wait when two limiters refuse, so that waiting it satisfies both', () => {
    const account = limit({ name: 'sensitive', accepted: false, remaining: 0, limit: 2, retryAfter: Math.floor(AT) + 3 });
    const address = limit({ name: 'sensitive.address', accepted: false, remaining: 0, limit: 10, retryAfter: Math.floor(AT) + 4 });
    const headers = new Map(rateLimitHeaders([account, address], { retryAfter: true }));
    assert.equal(headers.get('Retry-After'), '4');
    assert.equal(headers.get('X-RateLimit-Limit'), '10');
    assert.equal(createTooManyRequests([account, address]).headers['Retry-After'], '4');
  });

  it('lists a limiter counted in two scopes once, with the limit of the two that binds', () => {
    const headers = new Map(rateLimitHeaders([limit({ remaining: 7 }), limit({ name: 'sensitive', limit: 20 }), limit({ remaining: 4, resetAt: AT + 25 })]));
    assert.equal(headers.get('RateLimit-Policy'), '"default";q=50;w=30, "sensitive";q=20;w=30');
    assert.equal(headers.get('RateLimit'), '"default";r=4;t=25, "sensitive";r=10;t=18');
  });

  it('binds by the fewest tokens left among accepted limits, then by the longer wait', () => {
    assert.equal(bindingLimit([limit({ remaining: 5 }), limit({ name: 'b', remaining: 2 }), limit({ name: 'c', remaining: 2 })])?.name, 'b');
    assert.equal(bindingLimit([limit({ accepted: false, remaining: 1 }), limit({ name: 'b', accepted: false, remaining: 0 })])?.name, 'b');
  });

  it('sends no Retry-After on a refusal whose wait is under a second, as the reference', () => {
    const refused = limit({ accepted: false, remaining: 0, retryAfter: Math.floor(AT) });
    const headers = rateLimitHeaders([refused], { retryAfter: true });
    assert.deepEqual(headers.slice(0, 3), [['X-RateLimit-Remaining', '0'], ['X-RateLimit-Retry-After', '0'], ['X-RateLimit-Limit', '50']]);
    assert.equal(headers.some(([name]) => name === 'Retry-After'), false);
  });

  it('states nothing for no_limit or degraded answers', () => {
    assert.deepEqual(rateLimitHeaders([limit({ limit: Number.MAX_SAFE_INTEGER }), limit({ degraded: true })]), []);
  });

  it('escapes the policy name as an RFC 8941 string', () => {
    assert.equal(rateLimitHeaders([limit({ name: 'a"b\\c' })])[3]![1], '"a\\"b\\\\c";q=50;w=30');
  });
});
