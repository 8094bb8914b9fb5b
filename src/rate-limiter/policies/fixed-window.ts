import { TokensExceedLimitError, type Decision, type Policy, type PolicyState } from './policy.js';

/**
 * Symfony's FixedWindowLimiter: the window opens at its first hit (not aligned to the clock) and is over
 * once more than `interval` seconds have passed since then. A refusal says to come back when it ends.
 * Example, limit 3 per 30 s, first hit at t=100: hits at 100, 101, 102 accepted (remaining 2, 1, 0); a hit
 * at 110 refused, retryAfter = floor(110 + ceil(100 + 30 − 110)) = 130; a hit at 130.5 opens a new window.
 */
export class FixedWindowPolicy implements Policy {
  constructor(
    readonly limit: number,
    readonly interval: number,
  ) {
    if (limit < 1) throw new RangeError('A fixed window limit must be at least 1.');
  }

  reserve(stored: PolicyState | undefined, tokens: number, now: number, maxWait: number): { decision: Decision; state?: PolicyState; expiresAt?: number } {
    const { limit, interval } = this;
    if (tokens > limit) throw new TokensExceedLimitError(tokens, limit);
    const expired = stored === undefined || now - stored.timer! > interval;
    const timer = expired ? now : stored.timer!;
    const hits = expired ? 0 : stored.hits!;
    const available = limit - hits;
    const resetAt = timer + interval;
    // Plain literals rather than helper closures: this runs on every request.
    if (tokens === 0) {
      const wait = available >= 1 ? 0 : Math.ceil(resetAt - now);
      return { decision: { reserved: false, accepted: true, remaining: Math.max(0, available), limit, retryAfter: Math.floor(now + wait), timeToAct: now, resetAt } };
    }
    if (available >= tokens) {
      return {
        decision: { reserved: true, accepted: true, remaining: available - tokens, limit, retryAfter: Math.floor(now), timeToAct: now, resetAt },
        state: { timer, hits: hits + tokens },
        expiresAt: resetAt,
      };
    }
    const wait = Math.ceil(resetAt - now);
    const at = now + wait;
    if (wait > maxWait) return { decision: { reserved: false, accepted: false, remaining: Math.max(0, available), limit, retryAfter: Math.floor(at), timeToAct: at, resetAt } };
    return {
      decision: { reserved: true, accepted: false, remaining: Math.max(0, available - tokens), limit, retryAfter: Math.floor(at), timeToAct: at, resetAt },
      state: { timer, hits: hits + tokens },
      expiresAt: resetAt,
    };
  }
}
