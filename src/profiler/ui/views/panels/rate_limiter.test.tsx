/** @jsxRuntime automatic @jsxImportSource preact */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { renderToString } from 'preact-render-to-string';
import type { RateLimiterEntry } from '../../../collectors/rate-limiter-collector.js';
import type { Profile } from '../../../profile.js';
import { RateLimiterPanel } from './rate_limiter.js';

const ENTRY: RateLimiterEntry = { limiter: 'default', policy: 'fixed_window', scope: 'api_limited', key: '203.0.113.9', accepted: true, remaining: 49, limit: 50, retryAfter: 0, reset: 30, window: 30, degraded: false };

// The cells after the key: verdict, remaining, limit, window, retry after, resets in.
function cellsFor(entry: RateLimiterEntry): string[] {
  const profile: Profile = { token: 'abc123', parent: undefined, children: [], time: 0, method: 'GET', url: 'http://localhost/', ip: '127.0.0.1', statusCode: 200, type: 'request', collectors: {} };
  const html = renderToString(<RateLimiterPanel profile={profile} data={{ limiters: [entry] }} base="" query={new URLSearchParams()} routes={undefined} />);
  return [...html.matchAll(/<td[^>]*>(.*?)<\/td>/g)].map((match) => match[1]!).slice(4);
}

describe('RateLimiterPanel', () => {
  it('shows the count the storage made', () => {
    assert.deepEqual(cellsFor(ENTRY), ['accepted', '49', '50', '30', '0', '30']);
  });

  // The fail mode answered with the limit (open) or 0 (closed) as remaining: "50 remaining" while Redis was down.
  it('shows no remaining count nor reset for an answer the storage did not give', () => {
    assert.deepEqual(cellsFor({ ...ENTRY, degraded: true, remaining: 50, reset: 0 }), ['accepted (storage unavailable: fail mode)', 'unknown', '50', '30', '0', '-']);
    assert.deepEqual(cellsFor({ ...ENTRY, degraded: true, accepted: false, remaining: 0, retryAfter: 1, reset: 0 }), ['refused (storage unavailable: fail mode)', 'unknown', '50', '30', '1', '-']);
  });

  it('shows a no_limit limiter as unlimited, without a window or a reset', () => {
    const max = Number.MAX_SAFE_INTEGER;
    assert.deepEqual(cellsFor({ ...ENTRY, limiter: 'free', policy: 'no_limit', remaining: max, limit: max, window: 60, reset: 0 }), ['accepted', 'unlimited', 'unlimited', '-', '0', '-']);
  });
});
