import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { RateLimiterConfig } from '../config/config.js';
import { HttpException, TooManyRequestsHttpException } from '../http/http-exception.js';
import { createTooManyRequests, storageUnavailable } from './rate-limit.js';
import { rateLimitHeaders } from './rate-limit-headers.js';
import { RateLimiter } from './rate-limiter.js';
import { MaxWaitDurationExceededError } from './reservation.js';
import { GuardedStorage } from './storage/guarded-storage.js';
import { MemoryStorage } from './storage/memory-storage.js';
import type { Storage } from './storage/storage.js';

const T0 = 1_800_000_000_000;

function limiterWith(config: RateLimiterConfig, storage: Storage = new MemoryStorage(), failMode: 'open' | 'closed' = 'open') {
  let now = T0;
  const slept: number[] = [];
  const limiter = new RateLimiter({ name: 'sensitive', config, storage, clock: () => now, failMode, sleep: async (ms) => void slept.push(ms) });
  return { limiter, slept, advance: (ms: number) => void (now += ms) };
}

const failing: Storage = {
  reserve: () => Promise.reject(new Error('ECONNREFUSED')),
  reset: () => Promise.resolve(),
  close: () => Promise.resolve(),
};

describe('RateLimiter', () => {
  it('admits the limit, refuses the next hit, and admits again in a new window', async () => {
    const { limiter, advance } = limiterWith({ policy: 'fixed_window', limit: 20, interval: 30 });
    for (let i = 19; i >= 0; i--) assert.equal((await limiter.consume('1.2.3.4')).remaining, i);
    const refused = await limiter.consume('1.2.3.4');
    assert.equal(refused.accepted, false);
    assert.equal(refused.retryAfterSeconds, 30);
    advance(30_001);
    assert.deepEqual([(await limiter.consume('1.2.3.4')).accepted, (await limiter.consume('1.2.3.4')).remaining], [true, 18]);
  });

  it('throws the 429 with Retry-After after the X-RateLimit headers from ensureAccepted', async () => {
    const { limiter, advance } = limiterWith({ policy: 'fixed_window', limit: 1, interval: 30 });
    (await limiter.consume('k')).ensureAccepted();
    advance(2_000);
    const refused = await limiter.consume('k');
    assert.throws(() => refused.ensureAccepted(), (error: unknown) => {
      assert.ok(error instanceof TooManyRequestsHttpException);
      assert.deepEqual(Object.keys(error.headers), ['X-RateLimit-Remaining', 'X-RateLimit-Retry-After', 'X-RateLimit-Limit', 'Retry-After', 'RateLimit-Policy', 'RateLimit']);
      assert.equal(error.headers['Retry-After'], '28');
      // The refusal is the application's: its stack starts where ensureAccepted() was called.
      assert.match(error.stack?.split('\n')[1] ?? '', /rate-limiter\.test\.ts:\d+/);
      return true;
    });
    assert.match(createTooManyRequests([refused]).stack?.split('\n')[1] ?? '', /rate-limiter\.test\.ts:\d+/);
  });

  it('reserves into the future and waits exactly until the reserved time', async () => {
    const { limiter, slept } = limiterWith({ policy: 'token_bucket', limit: 2, interval: 10, rate: { interval: 10, amount: 1 } });
    await limiter.consume('k', 2);
    const reservation = await limiter.reserve('k', 1, 60);
    assert.equal(reservation.waitDuration, 10);
    await reservation.wait();
    assert.deepEqual(slept, [10_000]);
    assert.equal((await limiter.consume('k')).accepted, false, 'the reserved token is already counted');
  });

  it('refuses a maximum wait that is no number of seconds, NaN or below 0, instead of reserving without bound', async () => {
    const { limiter } = limiterWith({ policy: 'fixed_window', limit: 1, interval: 30 });
    await limiter.consume('k');
    for (const maxWait of [Number.NaN, -5]) await assert.rejects(limiter.reserve('k', 1, maxWait), /^RangeError: The maximum wait must be 0 or more seconds/);
    assert.equal((await limiter.reserve('k', 1, Number.POSITIVE_INFINITY)).waitDuration, 30);
  });

  it('refuses settings that limit nothing, or everything, when it is made: a limit that is no whole number from 1, an interval of 0 or less, an unknown policy', () => {
    for (const config of [
      { policy: 'fixed_window', limit: 3, interval: 0 },
      { policy: 'fixed_window', limit: 3, interval: -30 },
      { policy: 'fixed_window', limit: 2.5, interval: 30 },
      { policy: 'sliding_window', limit: Number.NaN, interval: 30 },
      { policy: 'fixed_window', limit: Number.POSITIVE_INFINITY, interval: 30 },
      { policy: 'sliding_window', limit: 3, interval: Number.NaN },
      { policy: 'bogus', limit: 3, interval: 30 },
    ]) {
      assert.throws(() => limiterWith(config as RateLimiterConfig), RangeError, JSON.stringify(config));
    }
  });

  it('refuses a reservation beyond the allowed wait, counting nothing', async () => {
    const { limiter } = limiterWith({ policy: 'fixed_window', limit: 1, interval: 30 });
    await limiter.consume('k');
    await assert.rejects(limiter.reserve('k', 1, 5), MaxWaitDurationExceededError);
    await assert.rejects(limiter.consume('k', 2), /Cannot reserve more tokens \(2\) than the size of the rate limiter \(1\)/);
  });

  it('scales to a limiter with its own name, keys and several times the quota, a bucket\'s refill included', async () => {
    const storage = new MemoryStorage();
    const { limiter, advance } = limiterWith({ policy: 'token_bucket', limit: 2, interval: 10, rate: { interval: 10, amount: 1 } }, storage, 'closed');
    const ceiling = limiter.scaled('sensitive.address', 5);
    assert.deepEqual([ceiling.name, ceiling.failMode, ceiling.config.limit, ceiling.config.rate], ['sensitive.address', 'closed', 10, { interval: 10, amount: 5 }]);
    for (let i = 0; i < 2; i++) await limiter.consume('k');
    // The same key under the other name is another quota on the same storage.
    for (let i = 9; i >= 0; i--) assert.equal((await ceiling.consume('k')).remaining, i);
    assert.equal((await ceiling.consume('k')).accepted, false);
    advance(10_000);
    assert.equal((await ceiling.consume('k')).remaining, 4);
    assert.equal((await limiter.consume('k')).remaining, 0);
  });

  it('states a token bucket\'s quota over the time it takes to refill the whole burst, the rate it admits', async () => {
    const { limiter } = limiterWith({ policy: 'token_bucket', limit: 20, interval: 30, rate: { interval: 30, amount: 1 } });
    const headers = new Map(rateLimitHeaders([await limiter.consume('k')]));
    // 20 at once, then 1 per 30 s: 20 per 600 s, not 20 per 30 s.
    assert.equal(headers.get('RateLimit-Policy'), '"sensitive";q=20;w=600');
    assert.equal(headers.get('RateLimit'), '"sensitive";r=19;t=30');
    const { limiter: byThree } = limiterWith({ policy: 'token_bucket', limit: 20, interval: 30, rate: { interval: 30, amount: 3 } });
    // Seven refills of 3 fill an empty bucket of 20.
    assert.equal(new Map(rateLimitHeaders([await byThree.consume('k', 20)])).get('RateLimit'), '"sensitive";r=0;t=210');
    assert.equal((await byThree.consume('k', 0)).window, 210);
    const { limiter: fixed } = limiterWith({ policy: 'fixed_window', limit: 20, interval: 30 });
    assert.equal(new Map(rateLimitHeaders([await fixed.consume('k')])).get('RateLimit-Policy'), '"sensitive";q=20;w=30');
  });

  it('never refuses under no_limit and reports the largest safe integer', async () => {
    const { limiter } = limiterWith({ policy: 'no_limit', limit: 1, interval: 1 });
    for (let i = 0; i < 5; i++) assert.equal((await limiter.consume('k')).remaining, Number.MAX_SAFE_INTEGER);
  });

  describe('when the storage is unavailable', () => {
    it('admits in fail-open mode, marking the answer degraded', async () => {
      const { limiter } = limiterWith({ policy: 'fixed_window', limit: 5, interval: 30 }, new GuardedStorage(failing), 'open');
      const limit = await limiter.consume('k');
      assert.deepEqual([limit.accepted, limit.degraded], [true, true]);
    });

    it('refuses in fail-closed mode, marking the answer degraded', async () => {
      const { limiter } = limiterWith({ policy: 'fixed_window', limit: 5, interval: 30 }, new GuardedStorage(failing), 'closed');
      const limit = await limiter.consume('k');
      assert.deepEqual([limit.accepted, limit.degraded, limit.retryAfterSeconds], [false, true, 1]);
      // ensureAccepted answers as the route's listener does: 503, the storage's fault, not a 429.
      assert.throws(() => limit.ensureAccepted(), (error: HttpException) => error.status === 503 && error.code === 'KEEL_ERR_RATE_LIMIT_STORAGE_UNAVAILABLE' && error.headers['Retry-After'] === '1');
    });

    // The route's listener throws it too: the log line and X-Debug-Exception-File named the factory.
    it('starts the 503 of a fail-closed limiter where it is made, as the 429', () => {
      assert.match(storageUnavailable().stack?.split('\n')[1] ?? '', /rate-limiter\.test\.ts:\d+/);
    });
  });
});
