/**
 * What the rate limiter logs (channel `rate_limiter`), once per outage and once per recovery; context:
 * storage (the URL, credentials masked), error.
 */
export const RATE_LIMIT_LOG_MESSAGES = {
  storageUnavailable: 'rate limiter storage unavailable',
  storageRecovered: 'rate limiter storage recovered',
} as const;
