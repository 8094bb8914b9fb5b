import { TokensExceedLimitError, type Decision, type Policy, type PolicyState } from './policy.js';

/**
 * Symfony's TokenBucketLimiter: the bucket starts full (`limit` is the burst) and gains `amount` tokens
 * every `rateInterval` seconds, whole intervals only; the timer moves by whole intervals so that a
 * partly elapsed one is not lost. Example, burst 3, 1 token per 10 s, three hits at t=0: a 4th hit at t=0
 * is refused with retryAfter = floor(0 + ceil((1 − 0) / 1) × 10) = 10; at t=10 one token is back.
 */
export class TokenBucketPolicy implements Policy {
  declare readonly limit: number;
  declare readonly rateInterval: number;
  declare readonly amount: number;

  constructor(
    limit: number,
    rateInterval: number,
    amount = 1,
  ) {
    this.limit = limit;
    this.rateInterval = rateInterval;
    this.amount = amount;
    if (limit < 1 || amount < 1 || rateInterval <= 0) throw new RangeError('A token bucket needs a burst ≥ 1 and a positive rate.');
  }

  reserve(stored: PolicyState | undefined, tokens: number, now: number, maxWait: number): { decision: Decision; state?: PolicyState; expiresAt?: number } {
    const { limit, rateInterval, amount } = this;
    if (tokens > limit) throw new TokensExceedLimitError(tokens, limit);
    // A timer after `now` (the clock stepped back, or a host whose clock runs ahead wrote it) restarts the
    // refill now with the tokens it held: read as it was, no token came back until the clock caught up. A
    // refusal then writes it back so, or each hit would restart the refill at its own now.
    const rebased = stored !== undefined && stored['timer']! > now;
    const timer0 = rebased ? now : (stored?.['timer'] ?? now);
    const cycles = Math.floor(Math.max(0, now - timer0) / rateInterval);
    const available = Math.min(limit, (stored?.['tokens'] ?? limit) + cycles * amount);
    const bucket = new BucketAt(limit, rateInterval, amount, timer0 + cycles * rateInterval, now);
    if (available >= tokens) {
      const left = available - tokens;
      // Consuming nothing from an empty bucket tells when the next token arrives (Symfony).
      const retryAfter = available === 0 ? now + bucket.timeFor(1) : now;
      const decision = bucket.decide(true, left, retryAfter, now, tokens > 0, left);
      return tokens > 0 || rebased ? { decision, ...bucket.save(left) } : { decision };
    }
    const wait = bucket.timeFor(tokens - available);
    if (wait > maxWait) {
      const decision = bucket.decide(false, available, now + wait, now + wait, false, available);
      return rebased ? { decision, ...bucket.save(available) } : { decision };
    }
    return { decision: bucket.decide(false, 0, now + wait, now + wait, true, available - tokens), ...bucket.save(available - tokens) };
  }
}

/**
 * The bucket as one reserve() sees it at `now`, its timer moved by the whole intervals elapsed. Methods
 * rather than closures made in reserve(): tsx names each closure kept in a variable with a defineProperty
 * call every time it is made (~0.75 µs each, three a hit).
 */
class BucketAt {
  // Declared, assigned by the constructor: a class field would be defined empty first, on every hit.
  declare readonly limit: number;
  declare readonly rateInterval: number;
  declare readonly amount: number;
  declare readonly timer: number;
  declare readonly now: number;

  constructor(
    limit: number,
    rateInterval: number,
    amount: number,
    timer: number,
    now: number,
  ) {
    this.limit = limit;
    this.rateInterval = rateInterval;
    this.amount = amount;
    this.timer = timer;
    this.now = now;
  }

  /** Seconds until `missing` tokens are back: whole intervals. */
  timeFor(missing: number): number {
    return Math.ceil(missing / this.amount) * this.rateInterval;
  }

  decide(accepted: boolean, remaining: number, retryAfter: number, timeToAct: number, reserved: boolean, left: number): Decision {
    const { limit, now, timer } = this;
    return { reserved, accepted, remaining: Math.max(0, remaining), limit, retryAfter: Math.floor(retryAfter), timeToAct, resetAt: left >= limit ? now : timer + this.timeFor(limit - left) };
  }

  /**
   * The state kept with `left` tokens, as long as Symfony keeps its bucket: a full refill from now, longer
   * while reserved tokens are owed. Forgetting it once it would be full restarted the refill's phase at the
   * next hit (burst 2, 1 per 10 s: hits at 0, 15, 15, and one at 20 was refused until 25).
   */
  save(left: number): { state: PolicyState; expiresAt: number } {
    return { state: { tokens: left, timer: this.timer }, expiresAt: this.now + this.timeFor(Math.max(this.limit, this.limit - left)) };
  }
}
