/** A rate limiting setting that cannot work, found at start-up; `code` is `KEEL_ERR_CONFIG_RATE_LIMITER`. */
export class RateLimiterConfigError extends Error {
  readonly code = 'KEEL_ERR_CONFIG_RATE_LIMITER';

  constructor(message: string) {
    super(message);
    this.name = 'RateLimiterConfigError';
  }
}
