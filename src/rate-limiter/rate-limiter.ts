import type { RateLimiterConfig } from '../config/config.js';
import { systemClock, type Clock } from './clock.js';
import { createPolicy } from './policies/create-policy.js';
import { TokensExceedLimitError, type Decision, type Policy } from './policies/policy.js';
import { RateLimit } from './rate-limit.js';
import { MaxWaitDurationExceededError, Reservation, type Sleep } from './reservation.js';
import { StorageUnavailableError } from './storage/guarded-storage.js';
import type { Storage } from './storage/storage.js';

/** What a limiter does when its storage cannot answer: admit (`open`) or refuse (`closed`). */
export type FailMode = 'open' | 'closed';

export interface RateLimiterOptions {
  /** The limiter's name: the prefix of every key it stores, and the IETF headers' policy name. */
  name: string;
  config: RateLimiterConfig;
  storage: Storage;
  clock?: Clock;
  failMode?: FailMode;
  sleep?: Sleep;
}

/**
 * A named limiter (Symfony's RateLimiterFactory and limiter in one): each key (a client address, an
 * account) has its own quota under the configured policy.
 * @example
 * const limiter = createRateLimiter({ name: 'sensitive', config: { policy: 'fixed_window', limit: 20, interval: 30 }, storage: new MemoryStorage() });
 * const limit = await limiter.consume(request.clientIp);
 * if (!limit.accepted) throw createTooManyRequests([limit]);
 */
export class RateLimiter {
  readonly name: string;
  readonly config: RateLimiterConfig;
  readonly failMode: FailMode;
  readonly #policy: Policy;
  readonly #storage: Storage;
  readonly #clock: Clock;
  readonly #sleep: Sleep | undefined;

  constructor({ name, config, storage, clock = systemClock, failMode = 'open', sleep }: RateLimiterOptions) {
    this.name = name;
    this.config = config;
    this.failMode = failMode;
    this.#policy = createPolicy(config);
    this.#storage = storage;
    this.#clock = clock;
    this.#sleep = sleep;
  }

  /**
   * Takes `tokens` now, or refuses without counting them (Symfony's `consume` = `reserve(n, 0)`). When
   * the storage is unavailable the fail mode answers, marked `degraded`.
   */
  async consume(key: string, tokens = 1): Promise<RateLimit> {
    const now = this.#clock() / 1000;
    try {
      return this.#rateLimit(await this.#decide(key, tokens, now, -1), now);
    } catch (error) {
      if (!(error instanceof StorageUnavailableError)) throw error;
      const open = this.failMode === 'open';
      return new RateLimit({
        name: this.name, accepted: open, remaining: open ? this.config.limit : 0, limit: this.config.limit,
        retryAfter: Math.floor(now) + (open ? 0 : 1), resetAt: now, at: now, window: this.#window(), degraded: true,
      });
    }
  }

  /**
   * Sets `tokens` aside, now or as soon as the policy allows within `maxWait` seconds (unbounded when
   * absent). Throws MaxWaitDurationExceededError, counting nothing, when that is too long; a storage
   * failure is thrown as StorageUnavailableError whatever the fail mode.
   */
  async reserve(key: string, tokens = 1, maxWait?: number): Promise<Reservation> {
    // NaN would let any wait through (nothing is greater than NaN); below 0 is no wait one can allow.
    if (maxWait !== undefined && !(maxWait >= 0)) throw new RangeError(`The maximum wait must be 0 or more seconds, got ${maxWait}.`);
    const now = this.#clock() / 1000;
    const decision = await this.#decide(key, tokens, now, maxWait ?? Number.MAX_VALUE);
    const rateLimit = this.#rateLimit(decision, now);
    if (!decision.reserved && tokens > 0) throw new MaxWaitDurationExceededError(rateLimit);
    return new Reservation(decision.timeToAct, rateLimit, { clock: this.#clock, sleep: this.#sleep });
  }

  /**
   * This limiter with `factor` times its quota (a token bucket's refill too), under another name and so
   * with keys of its own, on the same storage, clock and fail mode: the per-address ceiling that goes
   * with a per-account limit.
   * @example limiter.scaled('sensitive.address', 5) // fixed window, 100 per 30 s for 20 per 30 s
   */
  scaled(name: string, factor: number): RateLimiter {
    const { rate } = this.config;
    const config: RateLimiterConfig = { ...this.config, limit: this.config.limit * factor, ...(rate === undefined ? {} : { rate: { ...rate, amount: rate.amount * factor } }) };
    return new RateLimiter({ name, config, storage: this.#storage, clock: this.#clock, failMode: this.failMode, sleep: this.#sleep });
  }

  /** Forgets the key's state: its next hit starts a fresh quota. */
  reset(key: string): Promise<void> {
    return this.#storage.reset(this.#id(key));
  }

  #decide(key: string, tokens: number, now: number, maxWait: number): Promise<Decision> {
    if (!Number.isInteger(tokens) || tokens < 0) return Promise.reject(new RangeError(`Tokens must be a non-negative integer, got ${tokens}.`));
    if (this.config.policy === 'no_limit') return Promise.resolve(this.#policy.reserve(undefined, tokens, now, maxWait).decision);
    if (tokens > this.config.limit) return Promise.reject(new TokensExceedLimitError(tokens, this.config.limit));
    return this.#storage.reserve(this.#id(key), this.config, tokens, now, maxWait);
  }

  #rateLimit(decision: Decision, now: number): RateLimit {
    return new RateLimit({ name: this.name, ...decision, at: now, window: this.#window() });
  }

  /**
   * The IETF `w`, the seconds over which the limit (`q`) is granted. A token bucket's limit is its burst,
   * refilled `amount` tokens per rate interval: stated per rate interval (burst 20, 1 token per 30 s:
   * `q=20;w=30`), it promised 20 requests per 30 s where 1 is admitted. Its window is instead the time to
   * refill the whole burst (`q=20;w=600`), so that q/w is the steady rate admitted and `RateLimit`'s
   * `r` ≤ q and `t` ≤ w count the same quota; `q=1;w=30`, the other honest pair, would show `r=20` of `q=1`.
   */
  #window(): number {
    const { policy, limit, interval, rate } = this.config;
    if (policy !== 'token_bucket') return interval;
    const { interval: rateInterval, amount } = rate ?? { interval, amount: 1 };
    return Math.ceil(limit / amount) * rateInterval;
  }

  #id(key: string): string {
    return `${this.name}-${key}`;
  }
}

/** @see RateLimiter */
export function createRateLimiter(options: RateLimiterOptions): RateLimiter {
  return new RateLimiter(options);
}
