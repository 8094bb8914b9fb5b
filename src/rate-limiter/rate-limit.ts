import { HttpException, TooManyRequestsHttpException } from '../http/http-exception.js';
import { bindingLimit, rateLimitHeaders } from './rate-limit-headers.js';

export interface RateLimitInit {
  /** The limiter's name (`default`, `sensitive`): the IETF headers' policy name. */
  name: string;
  accepted: boolean;
  remaining: number;
  limit: number;
  /** Unix time in whole seconds: now when accepted, when to come back when refused. */
  retryAfter: number;
  /** When the quota is whole again, in seconds since the epoch. */
  resetAt: number;
  /** When the decision was taken, in seconds since the epoch. */
  at: number;
  /** The window in seconds, for a token bucket the time to refill its whole burst: the IETF `w`. */
  window: number;
  /** True when the storage could not be reached and the limiter's fail mode decided. */
  degraded?: boolean;
}

/**
 * The answer of a limiter for one hit (Symfony's RateLimit): accepted or not, tokens left, the limit,
 * and when to retry.
 * @example
 * const limit = await limiter.consume(request.clientIp);
 * limit.ensureAccepted(); // throws TooManyRequestsHttpException (429) with Retry-After when refused
 */
export class RateLimit {
  readonly name: string;
  readonly accepted: boolean;
  /** Tokens left; when `degraded`, the limit, since no quota is known (the response then carries no rate header). */
  readonly remaining: number;
  readonly limit: number;
  readonly retryAfter: number;
  readonly resetAt: number;
  readonly at: number;
  readonly window: number;
  readonly degraded: boolean;

  constructor(init: RateLimitInit) {
    this.name = init.name;
    this.accepted = init.accepted;
    this.remaining = init.remaining;
    this.limit = init.limit;
    this.retryAfter = init.retryAfter;
    this.resetAt = init.resetAt;
    this.at = init.at;
    this.window = init.window;
    this.degraded = init.degraded ?? false;
  }

  /** What the reference's controller sends: `getRetryAfter()->getTimestamp() - time()`. */
  get retryAfterSeconds(): number {
    return Math.max(0, this.retryAfter - Math.floor(this.at));
  }

  /** Seconds until the quota is whole again, rounded up. */
  get resetSeconds(): number {
    return Math.max(0, Math.ceil(this.resetAt - this.at));
  }

  /**
   * Throws the 429 when the hit was refused. Unlike Symfony's RateLimitExceededException (a 500 unless
   * mapped), this is the HTTP answer itself, with the rate headers and Retry-After.
   */
  ensureAccepted(message = ''): this {
    if (this.accepted) return this;
    // Refused because the storage could not be asked (fail closed): the server's fault, not the client's.
    const error = this.degraded ? storageUnavailable() : createTooManyRequests([this], { message });
    // Where the application refused the request, as the log line and X-Debug-Exception-File then say.
    Error.captureStackTrace(error, RateLimit.prototype.ensureAccepted);
    throw error;
  }
}

/** The 503 of a limiter that failed closed because its storage could not be reached: come back in a second. */
export function storageUnavailable(): HttpException {
  // The message shows in the log line and the debug page only (a 5xx message is not exposed).
  const error = new HttpException(503, { message: 'The rate limiter storage is unavailable.', code: 'KEEL_ERR_RATE_LIMIT_STORAGE_UNAVAILABLE', headers: { 'Retry-After': '1' } });
  // As the 429's: the log line and X-Debug-Exception-File name the caller (keel's listener), not this factory.
  Error.captureStackTrace(error, storageUnavailable);
  return error;
}

/**
 * The 429 for refused limits: the reference's X-RateLimit-* headers, then Retry-After, then the IETF fields. `bare` gives the
 * reference's `throw new TooManyRequestsHttpException()`: no header at all.
 */
export function createTooManyRequests(limits: readonly RateLimit[], { message = '', bare = false }: { message?: string; bare?: boolean } = {}): TooManyRequestsHttpException {
  const refused = bindingLimit(limits.filter((limit) => !limit.accepted && !limit.degraded));
  // Retry-After is also among the headers so that it keeps the reference's place, right after the
  // X-RateLimit-* trio; the constructor then only refreshes its value.
  const error = bare
    ? new TooManyRequestsHttpException(undefined, message)
    : new TooManyRequestsHttpException(refused?.retryAfterSeconds, message, { headers: Object.fromEntries(rateLimitHeaders(limits, { retryAfter: true })) });
  // Its stack starts at the caller (a controller, keel's listener), which the error page and the log line
  // name as where it was thrown, not at this factory.
  Error.captureStackTrace(error, createTooManyRequests);
  return error;
}
