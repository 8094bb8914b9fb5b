import { SEED_HEADERS } from '../../test/helpers/seed-request.js';

/** The reference's header set for `GET /robots.txt`, as autocannon takes it (it keeps insertion order). */
export function seedHeaderObject(): Record<string, string> {
  return Object.fromEntries(SEED_HEADERS);
}
