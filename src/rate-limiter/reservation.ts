import type { Clock } from './clock.js';
import type { RateLimit } from './rate-limit.js';

export type Sleep = (ms: number) => Promise<void>;

// setTimeout takes at most 2^31 − 1 ms (~24.8 days) and fires at once for more: a longer wait is slept in parts.
const MAX_TIMEOUT_MS = 2 ** 31 - 1;
const realSleep: Sleep = async (ms) => {
  for (let left = ms; left > 0; left -= MAX_TIMEOUT_MS) await new Promise((resolve) => setTimeout(resolve, Math.min(left, MAX_TIMEOUT_MS)));
};

/**
 * Tokens set aside for a moment that may lie in the future (Symfony's Reservation): wait until
 * `timeToAct`, then go ahead; the tokens are already counted.
 * @example const reservation = await limiter.reserve(key, 1, 5); await reservation.wait(); doTheWork();
 */
export class Reservation {
  readonly #clock: Clock;
  readonly #sleep: Sleep;

  /** Seconds since the epoch. */
  declare readonly timeToAct: number;
  declare readonly rateLimit: RateLimit;

  constructor(
    timeToAct: number,
    rateLimit: RateLimit,
    { clock, sleep = realSleep }: { clock: Clock; sleep?: Sleep },
  ) {
    this.timeToAct = timeToAct;
    this.rateLimit = rateLimit;
    this.#clock = clock;
    this.#sleep = sleep;
  }

  /** Seconds still to wait (0 once the time has come). */
  get waitDuration(): number {
    return Math.max(0, this.timeToAct - this.#clock() / 1000);
  }

  async wait(): Promise<void> {
    const ms = this.waitDuration * 1000;
    if (ms > 0) await this.#sleep(ms);
  }
}

/** A reservation would have to wait longer than the caller allowed; nothing was counted. */
export class MaxWaitDurationExceededError extends Error {
  declare readonly rateLimit: RateLimit;

  constructor(rateLimit: RateLimit) {
    super(`The rate limiter wait time (${rateLimit.retryAfterSeconds} seconds) is longer than the provided maximum time.`);
    this.rateLimit = rateLimit;
    this.name = 'MaxWaitDurationExceededError';
  }
}
