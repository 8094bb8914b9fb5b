import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import fc from 'fast-check';
import { createPolicy } from '../policies/create-policy.js';
import type { Decision, PolicySpec, PolicyState } from '../policies/policy.js';
import type { Storage } from './storage.js';

const T0 = 1_800_000_000.25;
const FIXED: PolicySpec = { policy: 'fixed_window', limit: 3, interval: 30 };
const SLIDING: PolicySpec = { policy: 'sliding_window', limit: 3, interval: 30 };
const BUCKET: PolicySpec = { policy: 'token_bucket', limit: 3, interval: 10, rate: { interval: 10, amount: 1 } };
const CONSUME = -1;

let sequence = 0;
/** A fresh id per test, so suites sharing one server never see each other's state. */
function freshId(): string {
  return `contract-${process.pid}-${++sequence}-${Math.random().toString(36).slice(2)}`;
}

/**
 * What every Storage promises: Symfony's arithmetic for each policy (the reference's verified
 * examples), refused consumes not counted, reservations, reset, and the same decisions as the pure
 * policies on random timelines. Run by memory-storage.test.ts and redis-storage.test.ts.
 */
export function describeStorageContract(name: string, setUp: () => Promise<{ storage: Storage; tearDown?: () => Promise<void> }>): void {
  describe(`${name} (Storage contract)`, () => {
    let storage: Storage;
    let tearDown: (() => Promise<void>) | undefined;
    before(async () => {
      ({ storage, tearDown } = await setUp());
    });
    after(async () => {
      await tearDown?.();
    });

    async function run(spec: PolicySpec, id: string, steps: [at: number, tokens?: number, maxWait?: number][]): Promise<Decision[]> {
      const out: Decision[] = [];
      for (const [at, tokens = 1, maxWait = CONSUME] of steps) out.push(await storage.reserve(id, spec, tokens, T0 + at, maxWait));
      return out;
    }

    describe('with a fixed window of 3 per 30 s', () => {
      it('accepts 3 hits counting down, refuses the 4th until the window that began at the first hit ends', async () => {
        const d = await run(FIXED, freshId(), [[0], [1], [2], [10], [11]]);
        assert.deepEqual(d.map((x) => [x.accepted, x.remaining, x.retryAfter - Math.floor(T0)]), [[true, 2, 0], [true, 1, 1], [true, 0, 2], [false, 0, 30], [false, 0, 30]]);
        assert.equal(d[0]!.limit, 3);
      });

      it('opens a new window once more than the interval has passed since its first hit', async () => {
        const d = await run(FIXED, freshId(), [[0], [0], [0], [30], [30.001], [30.002]]);
        assert.deepEqual(d.map((x) => x.accepted), [true, true, true, false, true, true]);
        assert.equal(d[4]!.remaining, 2);
      });

      it('does not count a refused hit', async () => {
        const id = freshId();
        await run(FIXED, id, [[0], [0], [0], [1], [1], [1]]);
        const [next] = await run(FIXED, id, [[31]]);
        assert.equal(next!.remaining, 2);
      });
    });

    describe('with a sliding window of 3 per 30 s', () => {
      it('refuses a 4th immediate hit with a 10 s wait, as the reference computes it', async () => {
        const d = await run(SLIDING, freshId(), [[0], [0], [0], [0]]);
        assert.deepEqual(d.map((x) => x.accepted), [true, true, true, false]);
        assert.equal(d[3]!.retryAfter - Math.floor(T0), 10);
      });

      it('tells when the quota is whole again: the hits of a window count, weighted, through the next one', async () => {
        // 3 hits at 0: floor(3 × (1 − f)) of the next window (30–60 s) is 0 once f > 2/3, after 50 s.
        const d = await run(SLIDING, freshId(), [[0], [0], [0], [40.5, 0]]);
        assert.deepEqual(d.map((x) => x.resetAt - T0), [30, 45, 50, 50]);
        assert.equal(d[3]!.remaining, 2);
      });

      it('answers a look at the quota (0 tokens) with now while tokens are left, as the reference', async () => {
        const d = await run(SLIDING, freshId(), [[0], [0], [0.5, 0], [0.5], [0.5, 0]]);
        assert.deepEqual(d.slice(2).map((x) => [x.remaining, x.retryAfter - Math.floor(T0)]), [[1, 0], [0, 0], [0, 30]]);
      });

      it('weighs the previous window by how much of it still overlaps', async () => {
        // 3 hits in the first window; 15 s into the next, floor(3 × 0.5) = 1 still counts.
        const d = await run(SLIDING, freshId(), [[0], [0], [0], [45], [45], [45]]);
        assert.deepEqual(d.slice(3).map((x) => [x.accepted, x.remaining]), [[true, 1], [true, 0], [false, 0]]);
      });
    });

    describe('with a token bucket of 3, one token per 10 s', () => {
      it('starts full, refuses the 4th hit for 10 s, and refills one token per interval', async () => {
        const d = await run(BUCKET, freshId(), [[0], [0], [0], [0], [9.9], [10], [10]]);
        assert.deepEqual(d.map((x) => x.accepted), [true, true, true, false, false, true, false]);
        assert.equal(d[3]!.retryAfter - Math.floor(T0), 10);
        assert.equal(d[5]!.remaining, 0);
      });

      it('keeps the part of an interval that had already elapsed', async () => {
        const d = await run(BUCKET, freshId(), [[0], [0], [0], [15], [20]]);
        assert.deepEqual(d.map((x) => x.accepted), [true, true, true, true, true]);
      });

      it('keeps the refill going at its pace while the bucket is full, as the reference keeps its bucket', async () => {
        // One token taken at 0: full again at 10, the state kept until 30 (a full refill after the hit), so
        // the refill keeps ticking at 10, 20, 30… and the token taken at 15 is back at 20, not at 25.
        const d = await run(BUCKET, freshId(), [[0], [15], [15], [15], [20]]);
        assert.deepEqual(d.map((x) => x.accepted), [true, true, true, true, true]);
        assert.equal(d[4]!.remaining, 0);
      });
    });

    // A state from the future: written before the clock stepped back an hour (or by a host whose clock runs
    // ahead). Its window is read as begun now: the client waits an interval at most, not the hour.
    describe('when the clock steps back an hour', () => {
      it('keeps a fixed window\'s hits but ends the window an interval after now', async () => {
        const d = await run(FIXED, freshId(), [[3600], [3600], [3600], [0], [29], [30.5]]);
        assert.deepEqual(d.slice(3).map((x) => [x.accepted, x.retryAfter - Math.floor(T0)]), [[false, 30], [false, 30], [true, 30]]);
      });

      it('reads a sliding window as begun now, the previous window\'s hits counted only up to the limit', async () => {
        // 3 hits at 0, then 3 late in the next window (at 55, when the first three weigh floor(3 × 1/6) = 0).
        const d = await run(SLIDING, freshId(), [[0], [0], [0], [55], [55], [55], [-3600], [-3569.5]]);
        assert.deepEqual(d.map((x) => x.accepted), [true, true, true, true, true, true, false, true]);
        assert.equal(d[6]!.retryAfter - Math.floor(T0 - 3600), 10);
      });

      it('restarts a token bucket\'s refill now, with the tokens it held', async () => {
        const d = await run(BUCKET, freshId(), [[3600], [3600], [3600], [0], [9.9], [10]]);
        assert.deepEqual(d.slice(3).map((x) => [x.accepted, x.retryAfter - Math.floor(T0)]), [[false, 10], [false, 20], [true, 10]]);
      });
    });

    it('reserves into the future when allowed to wait, and counts the reserved tokens', async () => {
      const id = freshId();
      const d = await run(FIXED, id, [[0], [0], [0], [10, 1, 60]]);
      assert.equal(d[3]!.reserved, true);
      assert.equal(d[3]!.accepted, false);
      assert.equal(d[3]!.timeToAct, T0 + 30);
    });

    it('carries tokens reserved past a fixed window into the windows they fall in, as the reference does', async () => {
      // 3 hits at 0, 1 then 3 more reserved at 10: the first waits for the window after (30), the next
      // three for the one after that (60), and they are still owed once the first window is over.
      const d = await run(FIXED, freshId(), [[0], [0], [0], [10, 1, 60], [10, 3, 100], [31], [61, 0]]);
      assert.deepEqual(d.slice(3, 5).map((x) => x.timeToAct - T0), [30, 60]);
      assert.equal(d[5]!.accepted, false);
      assert.equal(d[5]!.retryAfter, Math.floor(T0 + 60));
      assert.equal(d[6]!.remaining, 2);
    });

    it('refuses a reservation that would wait longer than allowed, without counting it', async () => {
      const id = freshId();
      const d = await run(BUCKET, id, [[0, 3], [0, 2, 5], [10]]);
      assert.equal(d[1]!.reserved, false);
      assert.equal(d[2]!.accepted, true);
    });

    it('rejects a reservation larger than the limit', async () => {
      await assert.rejects(storage.reserve(freshId(), FIXED, 4, T0, CONSUME), /Cannot reserve more tokens \(4\) than the size of the rate limiter \(3\)/);
    });

    it('keeps apart ids that differ only by braces, or by what braces could be escaped as', async () => {
      const base = freshId();
      const ids = [`${base}-{a}`, `${base}-_a_`, `${base}-%7Ba%7D`];
      await run(FIXED, ids[0]!, [[0], [0], [0]]);
      for (const id of ids.slice(1)) assert.equal((await run(FIXED, id, [[0]]))[0]!.remaining, 2, id);
    });

    it('forgets a key on reset and keeps keys apart', async () => {
      const [a, b] = [freshId(), freshId()];
      await run(FIXED, a, [[0], [0], [0]]);
      assert.equal((await run(FIXED, b, [[0]]))[0]!.remaining, 2);
      await storage.reset(a);
      assert.equal((await run(FIXED, a, [[1]]))[0]!.remaining, 2);
    });

    it('starts afresh when the limiter comes back with another policy, never reading one policy\'s state as another\'s', async () => {
      const id = freshId();
      await run(BUCKET, id, [[0], [0]]);
      const [fixed] = await run(FIXED, id, [[1]]);
      assert.deepEqual([fixed!.accepted, fixed!.remaining, fixed!.retryAfter], [true, 2, Math.floor(T0 + 1)]);
      const [bucket] = await run(BUCKET, id, [[2]]);
      assert.deepEqual([bucket!.accepted, bucket!.remaining], [true, 2]);
    });

    it('decides exactly as the pure policies on random timelines', async () => {
      const specs = [FIXED, SLIDING, BUCKET, { policy: 'token_bucket', limit: 5, interval: 7, rate: { interval: 7, amount: 2 } } as PolicySpec];
      // Now and then the clock steps back (up to 90 s), as a host's may.
      const gap = fc.oneof({ arbitrary: fc.integer({ min: 0, max: 9_000 }), weight: 5 }, { arbitrary: fc.integer({ min: -90_000, max: -1 }), weight: 1 });
      const step = fc.tuple(gap, fc.integer({ min: 0, max: 3 }), fc.constantFrom(CONSUME, 0, 5, 40));
      await fc.assert(
        fc.asyncProperty(fc.constantFrom(...specs), fc.array(step, { minLength: 1, maxLength: 25 }), async (spec, steps) => {
          const id = freshId();
          const policy = createPolicy(spec);
          let state: PolicyState | undefined;
          let expiresAt = -Infinity;
          let now = T0;
          for (const [gapMs, tokens, maxWait] of steps) {
            now += gapMs / 1000;
            const expected = policy.reserve(expiresAt >= now ? state : undefined, tokens, now, maxWait);
            if (expected.state !== undefined) [state, expiresAt] = [expected.state, expected.expiresAt!];
            assert.deepEqual(await storage.reserve(id, spec, tokens, now, maxWait), expected.decision);
          }
        }),
        { numRuns: 60 },
      );
    });
  });
}
