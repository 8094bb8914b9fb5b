import { FixedWindowPolicy } from './fixed-window.js';
import { NoLimitPolicy } from './no-limit.js';
import type { Policy, PolicySpec } from './policy.js';
import { SlidingWindowPolicy } from './sliding-window.js';
import { TokenBucketPolicy } from './token-bucket.js';

/** The policy a limiter's settings name. */
export function createPolicy(spec: PolicySpec): Policy {
  switch (spec.policy) {
    case 'fixed_window':
      return new FixedWindowPolicy(spec.limit, spec.interval);
    case 'sliding_window':
      return new SlidingWindowPolicy(spec.limit, spec.interval);
    case 'token_bucket':
      return new TokenBucketPolicy(spec.limit, spec.rate?.interval ?? spec.interval, spec.rate?.amount ?? 1);
    case 'no_limit':
      return new NoLimitPolicy();
  }
}
