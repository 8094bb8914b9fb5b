import type { Request } from '../../http/request.js';
import type { Collector } from './collector.js';

/** One limiter consulted for the request, as the panel shows it. */
export interface RateLimiterEntry {
  limiter: string;
  policy: string;
  /** The route or path prefix that brought the limiter in. */
  scope: string;
  /** The client key: address (IPv6 per /56), plus a hashed account when the route names one. */
  key: string;
  accepted: boolean;
  remaining: number;
  limit: number;
  /** Seconds until a refused client may retry (0 when accepted). */
  retryAfter: number;
  /** Seconds until the quota is whole again. */
  reset: number;
  window: number;
  /** The storage did not answer and the limiter's fail mode decided. */
  degraded: boolean;
}

export interface RateLimiterData {
  limiters: RateLimiterEntry[];
}

/** Every rate limiter consulted for the request and its answer (the rate limit listener's record). */
export class RateLimiterCollector implements Collector<RateLimiterData> {
  readonly name = 'rate_limiter';

  collect(request: Request): RateLimiterData {
    return {
      limiters: (request.attributes.rateLimits ?? []).map(({ limiter, policy, scope, key, rateLimit }) => ({
        limiter,
        policy,
        scope,
        key,
        accepted: rateLimit.accepted,
        remaining: rateLimit.remaining,
        limit: rateLimit.limit,
        retryAfter: rateLimit.retryAfterSeconds,
        reset: rateLimit.resetSeconds,
        window: rateLimit.window,
        degraded: rateLimit.degraded,
      })),
    };
  }
}
