import { TokensExceedLimitError, type Decision, type Policy, type PolicyState } from './policy.js';

/**
 * Symfony's SlidingWindowLimiter (6.4+ semantics): the hits of the previous window count in proportion to
 * how much of it still overlaps the sliding window. State: `c` hits in the current window, `p` in the
 * previous one, `end` when the current window ends (the first ends `interval` after the first hit).
 * Example, limit 3 per 30 s, hits at t=0, 0, 0: a 4th hit at t=0 is refused with
 * needed = 1, releasable = 3 − floor(0) = 3, wait = 1 × 30 / 3 = 10 s, so retryAfter = 10.
 */
export class SlidingWindowPolicy implements Policy {
  declare readonly limit: number;
  declare readonly interval: number;

  constructor(
    limit: number,
    interval: number,
  ) {
    this.limit = limit;
    this.interval = interval;
    if (limit < 1) throw new RangeError('A sliding window limit must be at least 1.');
  }

  reserve(stored: PolicyState | undefined, tokens: number, now: number, maxWait: number): { decision: Decision; state?: PolicyState; expiresAt?: number } {
    const { limit, interval } = this;
    if (tokens > limit) throw new TokensExceedLimitError(tokens, limit);
    let c = stored?.['c'] ?? 0;
    let p = stored?.['p'] ?? 0;
    let end = stored?.['end'] ?? now + interval;
    // A window that begins after `now` (the clock stepped back, or a host whose clock runs ahead wrote it)
    // is read as beginning now, and a refusal writes it back so. Read as it was, its elapsed time was
    // negative and weighed the previous window more than whole: blocked until the clock caught up, and told
    // to wait as long. Beginning now, the previous window weighs whole, so it counts only up to the limit
    // and the wait stays within an interval (limit 3: three hits late in a window and three late in the
    // next count 3, not 6).
    const rebased = end > now + interval;
    if (rebased) [end, p] = [now + interval, Math.min(p, Math.max(0, limit - c))];
    if (now > end) {
      if (now < end + interval) [p, c, end] = [c, 0, end + interval];
      else [p, c, end] = [0, 0, now + interval];
    }
    const window = new WindowAt(limit, interval, p, end, now);
    const available = limit - window.hitCount(c);
    const kept = rebased ? window.save(c) : undefined;
    // Symfony's reserve(0): now while tokens are left, else when the window's hits are gone.
    if (tokens === 0) return { decision: window.decide(true, available, available > 0 ? now : now + window.timeForTokens(c, window.hitCount(c)), now, false, c), ...kept };
    if (available >= tokens) return { decision: window.decide(true, limit - window.hitCount(c + tokens), now, now, true, c + tokens), ...window.save(c + tokens) };
    const wait = window.timeForTokens(c, tokens);
    if (wait > maxWait) return { decision: window.decide(false, available, now + wait, now + wait, false, c), ...kept };
    return { decision: window.decide(false, limit - window.hitCount(c + tokens), now + wait, now + wait, true, c + tokens), ...window.save(c + tokens) };
  }
}

/**
 * The window as one reserve() sees it at `now`: `p` hits in the previous window, the current one ending at
 * `end`. Methods rather than closures made in reserve(): tsx names each closure kept in a variable with a
 * defineProperty call every time it is made (~0.75 µs each, five a hit).
 */
class WindowAt {
  // Declared, assigned by the constructor: a class field would be defined empty first, on every hit.
  declare readonly elapsed: number;
  declare readonly fraction: number;
  declare readonly limit: number;
  declare readonly interval: number;
  declare readonly p: number;
  declare readonly end: number;
  declare readonly now: number;

  constructor(
    limit: number,
    interval: number,
    p: number,
    end: number,
    now: number,
  ) {
    this.limit = limit;
    this.interval = interval;
    this.p = p;
    this.end = end;
    this.now = now;
    this.elapsed = now - (end - interval);
    this.fraction = Math.min(this.elapsed / interval, 1);
  }

  /** The weighted count with `current` hits in this window. */
  hitCount(current: number): number {
    return Math.floor(this.p * (1 - this.fraction) + current);
  }

  /** Seconds until `wanted` tokens are free, with `c` hits in this window. */
  timeForTokens(c: number, wanted: number): number {
    const { limit, interval, p, fraction, elapsed, end, now } = this;
    const remaining = limit - this.hitCount(c);
    if (remaining >= wanted) return 0;
    const releasable = Math.max(1, limit - Math.floor(p * (1 - fraction)));
    const needed = wanted - remaining;
    if (releasable >= needed) return (needed * (interval - elapsed)) / releasable;
    return end - now + ((needed - releasable) * interval) / limit;
  }

  /**
   * When the quota is whole again if nothing more is taken (the header's `t`): the `count` hits of this
   * window go on counting, weighted, through the next one, until floor(count × (1 − f)) is 0; with none,
   * the previous window's until floor(p × (1 − f)) is.
   */
  wholeAt(count: number): number {
    const { interval, p, end, now } = this;
    if (count >= 1) return end + interval * (1 - 1 / count);
    return p >= 1 ? Math.max(now, end - interval / p) : now;
  }

  decide(accepted: boolean, remaining: number, retryAfter: number, timeToAct: number, reserved: boolean, count: number): Decision {
    return { reserved, accepted, remaining: Math.max(0, remaining), limit: this.limit, retryAfter: Math.floor(retryAfter), timeToAct, resetAt: this.wholeAt(count), windowEnd: this.end };
  }

  /** The state kept with `count` hits in this window, until the next window is over. */
  save(count: number): { state: PolicyState; expiresAt: number } {
    return { state: { c: count, p: this.p, end: this.end }, expiresAt: this.end + this.interval };
  }
}
