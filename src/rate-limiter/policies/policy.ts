import type { RateLimiterConfig } from '../../config/config.js';

/** A limiter's settings as the policies and storages need them (the configuration entry). */
export type PolicySpec = Pick<RateLimiterConfig, 'policy' | 'limit' | 'interval' | 'rate'>;

/**
 * The outcome of one reservation, in seconds since the epoch (fractional, like PHP's microtime(true)).
 * `reserved` says whether the tokens were taken (now or at `timeToAct`); a refused consume takes nothing.
 */
export interface Decision {
  reserved: boolean;
  /** Accepted now; a reservation into the future is reserved but not accepted (Symfony's RateLimit). */
  accepted: boolean;
  remaining: number;
  limit: number;
  /** Whole seconds: floor(now) when accepted, when to come back otherwise. */
  retryAfter: number;
  /** When the reserved tokens may be used. */
  timeToAct: number;
  /** When the quota is whole again if nothing more is taken (end of a fixed window, a full bucket): the IETF header's `t`. */
  resetAt: number;
  /**
   * A sliding window's end, where the tokens were counted (what a refund checks); the other policies'
   * windows end at `resetAt`.
   */
  windowEnd?: number;
}

/** What a storage keeps per key: plain numbers, so that memory and Redis hold the same thing. */
export type PolicyState = Record<string, number>;

/** A pure state transition: never reads a clock, never touches storage. */
export interface Policy {
  /**
   * @param maxWait seconds a reservation may lie in the future; negative means "now or never" (consume).
   * @returns the decision, and the state to store (undefined: leave the stored state as it was) with
   *   the time after which it may be forgotten.
   */
  reserve(state: PolicyState | undefined, tokens: number, now: number, maxWait: number): { decision: Decision; state?: PolicyState; expiresAt?: number };
}

/** Symfony's message for a reservation larger than the limiter. */
export class TokensExceedLimitError extends RangeError {
  constructor(tokens: number, limit: number) {
    super(`Cannot reserve more tokens (${tokens}) than the size of the rate limiter (${limit}).`);
    this.name = 'TokensExceedLimitError';
  }
}
