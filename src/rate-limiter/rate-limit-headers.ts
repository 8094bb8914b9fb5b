import type { RateLimit } from './rate-limit.js';

/**
 * The headers that expose limits, in the order sent:
 * - `X-RateLimit-Remaining`, `X-RateLimit-Retry-After` (seconds, as the reference's controller computes
 *   it), `X-RateLimit-Limit`: of the binding limit (see bindingLimit);
 * - `Retry-After` (RFC 9110 §10.2.3, delay-seconds) on refusals, unless the wait is 0 s;
 * - `RateLimit-Policy` and `RateLimit`, the structured-field lists of draft-ietf-httpapi-ratelimit-headers
 *   (-07 and later), one item per limiter: `"default";q=50;w=30` and `"default";r=12;t=17`.
 * Limiters with the no_limit policy and degraded answers are left out: they state no real quota. A limiter
 * counted in two quotas (an account's on a route and its path prefix's) is one item, its binding limit.
 * @example rateLimitHeaders([limit]) // [['X-RateLimit-Remaining', '49'], …, ['RateLimit', '"default";r=49;t=30']]
 */
export function rateLimitHeaders(limits: readonly RateLimit[], { retryAfter = false } = {}): [string, string][] {
  const real = limits.filter((limit) => !limit.degraded && limit.limit !== Number.MAX_SAFE_INTEGER);
  const binding = bindingLimit(real);
  if (binding === undefined) return [];
  const headers: [string, string][] = [
    ['X-RateLimit-Remaining', String(binding.remaining)],
    ['X-RateLimit-Retry-After', String(binding.retryAfterSeconds)],
    ['X-RateLimit-Limit', String(binding.limit)],
  ];
  // As the reference's TooManyRequestsHttpException: no Retry-After for a wait under a second (0).
  if (retryAfter && !binding.accepted && binding.retryAfterSeconds > 0) headers.push(['Retry-After', String(binding.retryAfterSeconds)]);
  const policies = bindingPerName(real);
  headers.push(['RateLimit-Policy', policies.map((limit) => `${sfString(limit.name)};q=${sfInteger(limit.limit)};w=${sfInteger(limit.window)}`).join(', ')]);
  headers.push(['RateLimit', policies.map((limit) => `${sfString(limit.name)};r=${sfInteger(limit.remaining)};t=${sfInteger(limit.resetSeconds)}`).join(', ')]);
  return headers;
}

/**
 * One limit per limiter name, the binding one, in the order the names come: a route's quota per account
 * and its path prefix's quota of the same limiter are one policy to a client (same q and w), and the draft
 * ties each item of `RateLimit` to the `RateLimit-Policy` item of that name, which two items of one name
 * would leave unclear.
 */
function bindingPerName(limits: readonly RateLimit[]): readonly RateLimit[] {
  if (limits.length < 2) return limits;
  const byName = new Map<string, RateLimit>();
  for (const limit of limits) {
    const other = byName.get(limit.name);
    byName.set(limit.name, other === undefined ? limit : bindingLimit([other, limit])!);
  }
  return [...byName.values()];
}

/**
 * The limit that decides for several (Symfony's AbstractRequestRateLimiter::getMinimalRateLimit): a refused
 * one before an accepted one, then the one with fewer tokens left, then the one that waits longer, so that
 * a client that waits the Retry-After given is not refused by another of the limits. The first on a tie.
 */
export function bindingLimit<T extends Pick<RateLimit, 'accepted' | 'remaining' | 'retryAfter'>>(limits: readonly T[]): T | undefined {
  let binding: T | undefined;
  for (const limit of limits) {
    if (binding === undefined) binding = limit;
    else if (limit.accepted !== binding.accepted) binding = limit.accepted ? binding : limit;
    else if (limit.remaining !== binding.remaining) binding = limit.remaining < binding.remaining ? limit : binding;
    else if (limit.retryAfter > binding.retryAfter) binding = limit;
  }
  return binding;
}

// RFC 8941 §3.3.1: an sf-integer has at most 15 digits, and a field holding a longer one is invalid as a
// whole. The settings take limits up to 1801439850948198 (16 digits; the address ceiling is five times
// that) and intervals up to 2^53 − 1 s, and a token bucket's window multiplies its interval by its burst:
// past the bound a value is stated as the bound, which a client reads as the same "practically unbounded".
const SF_INTEGER_MAX = 999_999_999_999_999;

function sfInteger(value: number): number {
  return Math.min(value, SF_INTEGER_MAX);
}

// RFC 8941 §3.3.3 sf-string: printable ASCII, with `"` and `\` escaped.
function sfString(value: string): string {
  return `"${value.replace(/[^\x20-\x7e]/g, '').replace(/[\\"]/g, (c) => `\\${c}`)}"`;
}
