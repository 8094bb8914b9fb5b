import type { Decision, Policy } from './policy.js';

/**
 * Symfony's NoLimiter: everything accepted. The reference reports PHP_INT_MAX as remaining and limit,
 * which a JavaScript number cannot hold exactly; the largest safe integer stands in for it.
 */
export class NoLimitPolicy implements Policy {
  reserve(_state: unknown, _tokens: number, now: number): { decision: Decision } {
    const max = Number.MAX_SAFE_INTEGER;
    return { decision: { reserved: true, accepted: true, remaining: max, limit: max, retryAfter: Math.floor(now), timeToAct: now, resetAt: now } };
  }
}
