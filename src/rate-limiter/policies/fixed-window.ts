import { TokensExceedLimitError, type Decision, type Policy, type PolicyState } from './policy.js';

/**
 * Symfony's FixedWindowLimiter: the window opens at its first hit (not aligned to the clock) and is over
 * once more than `interval` seconds have passed since then. A refusal says to come back when it ends.
 * Example, limit 3 per 30 s, first hit at t=100: hits at 100, 101, 102 accepted (remaining 2, 1, 0); a hit
 * at 110 refused, retryAfter = floor(110 + ceil(100 + 30 − 110)) = 130; a hit at 130.5 opens a new window.
 * Tokens reserved beyond the limit are owed by the next windows, `limit` paid back per window elapsed, as
 * the reference's Window carries them: a reservation waits for the window that has room for it, and the
 * windows it lands in have that much less to give.
 */
export class FixedWindowPolicy implements Policy {
  declare readonly limit: number;
  declare readonly interval: number;

  constructor(
    limit: number,
    interval: number,
  ) {
    this.limit = limit;
    this.interval = interval;
    if (limit < 1) throw new RangeError('A fixed window limit must be at least 1.');
  }

  reserve(stored: PolicyState | undefined, tokens: number, now: number, maxWait: number): { decision: Decision; state?: PolicyState; expiresAt?: number } {
    const { limit, interval } = this;
    if (tokens > limit) throw new TokensExceedLimitError(tokens, limit);
    // A window opened after `now` (the clock stepped back, or a host whose clock runs ahead wrote it) is
    // read as opened now: its hits still count, but it ends an interval away at most; read as it was, it
    // stayed open, and its client blocked, until the clock caught up with it (an hour, for an hour's step).
    // A refusal then writes it back so, or each hit would open it anew at its own now.
    const rebased = stored !== undefined && stored['timer']! > now;
    const timer0 = rebased ? now : stored === undefined ? now : stored['timer']!;
    const hits0 = stored === undefined ? 0 : stored['hits']!;
    const elapsed = now - timer0;
    const expired = elapsed > interval;
    // Each whole window elapsed pays back `limit` of what the last one counted (0 without reservations).
    const carried = expired ? Math.max(0, hits0 - Math.floor(elapsed / interval) * limit) : hits0;
    const timer = expired ? now : timer0;
    const available = limit - carried;
    const resetAt = timer + interval;
    const kept = rebased ? { state: { timer, hits: carried }, expiresAt: timer + interval * Math.max(1, Math.ceil(carried / limit)) } : undefined;
    // Plain literals rather than helper closures: this runs on every request.
    if (tokens === 0) {
      const wait = available >= 1 ? 0 : Math.ceil(timer0 + interval * (Math.ceil((hits0 + 1) / limit) - 1) - now);
      return { decision: { reserved: false, accepted: true, remaining: Math.max(0, available), limit, retryAfter: Math.floor(now + wait), timeToAct: now, resetAt }, ...kept };
    }
    const hits = carried + tokens;
    // Kept until what it counts is paid back: one window, more while reserved tokens are owed.
    const expiresAt = timer + interval * Math.max(1, Math.ceil(hits / limit));
    if (available >= tokens) {
      return {
        decision: { reserved: true, accepted: true, remaining: available - tokens, limit, retryAfter: Math.floor(now), timeToAct: now, resetAt },
        state: { timer, hits },
        expiresAt,
      };
    }
    // The wait reads the stored window as it is, as the reference's does: the window with room for the
    // tokens after all those counted, ceil((hits + tokens) / limit) − 1 windows after the stored one.
    const wait = Math.ceil(timer0 + interval * (Math.ceil((hits0 + tokens) / limit) - 1) - now);
    const at = now + wait;
    if (wait > maxWait) return { decision: { reserved: false, accepted: false, remaining: Math.max(0, available), limit, retryAfter: Math.floor(at), timeToAct: at, resetAt }, ...kept };
    return {
      decision: { reserved: true, accepted: false, remaining: Math.max(0, available - tokens), limit, retryAfter: Math.floor(at), timeToAct: at, resetAt },
      state: { timer, hits },
      expiresAt,
    };
  }
}
