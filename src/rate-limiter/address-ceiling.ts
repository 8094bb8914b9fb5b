/**
 * How many times a limiter's quota an address may use on a route keyed by account: Symfony's login
 * throttling pairs its per-account limit with a per-address one of 5 × max_attempts.
 */
export const ADDRESS_CEILING_FACTOR = 5;

/**
 * The largest limit, or token bucket refill amount, a limiter may have (1 801 439 850 948 198): its
 * address ceiling multiplies both by ADDRESS_CEILING_FACTOR, and the product must still be a whole number
 * a JavaScript number holds exactly, or the ceiling could not count one hit at a time.
 */
export const MAX_LIMIT = Math.floor(Number.MAX_SAFE_INTEGER / ADDRESS_CEILING_FACTOR);
