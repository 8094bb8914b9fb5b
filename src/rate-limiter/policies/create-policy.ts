import { FixedWindowPolicy } from './fixed-window.js';
import { NoLimitPolicy } from './no-limit.js';
import type { Policy, PolicySpec } from './policy.js';
import { SlidingWindowPolicy } from './sliding-window.js';
import { TokenBucketPolicy } from './token-bucket.js';

/**
 * The policy a limiter's settings name. A limit is a whole number of tokens from 1 (Symfony's limiters
 * take an int, and refuse less than 1), an interval a positive number of seconds: an interval of 0 or below
 * never refused a hit, a NaN limit refused every one, and a fractional one counted half tokens. Settings
 * from the environment are held to this already; these are the application's own, in code.
 */
export function createPolicy(spec: PolicySpec): Policy {
  if (spec.policy !== 'no_limit') {
    if (!Number.isSafeInteger(spec.limit) || spec.limit < 1) throw new RangeError(`A rate limiter's limit must be a whole number from 1, got ${spec.limit}.`);
    if (!Number.isFinite(spec.interval) || spec.interval <= 0) throw new RangeError(`A rate limiter's interval must be a positive number of seconds, got ${spec.interval}.`);
  }
  switch (spec.policy) {
    case 'fixed_window':
      return new FixedWindowPolicy(spec.limit, spec.interval);
    case 'sliding_window':
      return new SlidingWindowPolicy(spec.limit, spec.interval);
    case 'token_bucket':
      return new TokenBucketPolicy(spec.limit, spec.rate?.interval ?? spec.interval, spec.rate?.amount ?? 1);
    case 'no_limit':
      return new NoLimitPolicy();
    default:
      throw new RangeError(`Unknown rate limiter policy "${String((spec as { policy: unknown }).policy)}": expected fixed_window, sliding_window, token_bucket or no_limit.`);
  }
}
