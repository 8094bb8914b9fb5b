import type { RateLimit } from './rate-limit.js';

/**
 * The headers that expose limits, in the order sent:
 * - `X-RateLimit-Remaining`, `X-RateLimit-Retry-After` (seconds, as the reference's controller computes
 *   it), `X-RateLimit-Limit`: of the binding limit (the first refused one, else the one with the fewest
 *   tokens left);
 * - `Retry-After` (RFC 9110 §10.2.3, delay-seconds) on refusals, unless the wait is 0 s;
 * - `RateLimit-Policy` and `RateLimit`, the structured-field lists of draft-ietf-httpapi-ratelimit-headers
 *   (-07 and later), one item per limiter: `"default";q=50;w=30` and `"default";r=12;t=17`.
 * Limiters with the no_limit policy and degraded answers are left out: they state no real quota.
 * @example rateLimitHeaders([limit]) // [['X-RateLimit-Remaining', '49'], …, ['RateLimit', '"default";r=49;t=30']]
 */
export function rateLimitHeaders(limits: readonly RateLimit[], { retryAfter = false } = {}): [string, string][] {
  const real = limits.filter((limit) => !limit.degraded && limit.limit !== Number.MAX_SAFE_INTEGER);
  const binding = real.find((limit) => !limit.accepted) ?? [...real].sort((a, b) => a.remaining - b.remaining)[0];
  if (binding === undefined) return [];
  const headers: [string, string][] = [
    ['X-RateLimit-Remaining', String(binding.remaining)],
    ['X-RateLimit-Retry-After', String(binding.retryAfterSeconds)],
    ['X-RateLimit-Limit', String(binding.limit)],
  ];
  // As the reference's TooManyRequestsHttpException: no Retry-After for a wait under a second (0).
  if (retryAfter && !binding.accepted && binding.retryAfterSeconds > 0) headers.push(['Retry-After', String(binding.retryAfterSeconds)]);
  headers.push(['RateLimit-Policy', real.map((limit) => `${sfString(limit.name)};q=${limit.limit};w=${limit.window}`).join(', ')]);
  headers.push(['RateLimit', real.map((limit) => `${sfString(limit.name)};r=${limit.remaining};t=${limit.resetSeconds}`).join(', ')]);
  return headers;
}

// RFC 8941 §3.3.3 sf-string: printable ASCII, with `"` and `\` escaped.
function sfString(value: string): string {
  return `"${value.replace(/[^\x20-\x7e]/g, '').replace(/[\\"]/g, (c) => `\\${c}`)}"`;
}
