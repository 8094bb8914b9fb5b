import assert from 'node:assert/strict';
import { describe, it, mock } from 'node:test';
import { RateLimit } from './rate-limit.js';
import { Reservation } from './reservation.js';

describe('Reservation', () => {
  it('sleeps a wait longer than a timer can hold (~24.8 days) in parts, instead of a timer that fires at once', async () => {
    const now = 1_800_000_000_000;
    const thirtyDays = 30 * 86_400;
    const limit = new RateLimit({ name: 'x', accepted: true, remaining: 0, limit: 1, retryAfter: now / 1000 + thirtyDays, resetAt: now / 1000, at: now / 1000, window: thirtyDays });
    const delays: number[] = [];
    const timer = mock.method(globalThis, 'setTimeout', ((callback: () => void, ms: number) => {
      delays.push(ms);
      queueMicrotask(callback);
    }) as unknown as typeof setTimeout);
    try {
      await new Reservation(now / 1000 + thirtyDays, limit, { clock: () => now }).wait();
    } finally {
      timer.mock.restore();
    }
    assert.ok(delays.every((ms) => ms <= 2 ** 31 - 1), String(delays));
    assert.equal(Math.round(delays.reduce((sum, ms) => sum + ms, 0)), thirtyDays * 1000);
  });
});
