import { RecentCache } from '../internal/recent-cache.js';
import type { Profile } from './profile.js';

// Text of frozen collector data, by object: see Collector. The configuration snapshot stays, a request's
// error goes a few records later (a WeakMap kept it past young-generation collections, see RecentCache).
const texts = new RecentCache<object, string>(8);

/**
 * A profile as JSON, the same text JSON.stringify would give, except that collector data returned frozen
 * is stringified once and its text reused: the configuration snapshot every record carries and the error a
 * failed request shares with its error sub-request make up about a third of what a 404 writes.
 */
export function stringifyProfile(profile: Profile): string {
  const { collectors, ...fields } = profile;
  const parts: string[] = [];
  for (const name of Object.keys(collectors)) {
    const text = collectorText(collectors[name]);
    if (text !== undefined) parts.push(`${JSON.stringify(name)}:${text}`);
  }
  const head = JSON.stringify(fields);
  return `${head.slice(0, -1)},"collectors":{${parts.join(',')}}}`;
}

function collectorText(data: unknown): string | undefined {
  if (typeof data !== 'object' || data === null || !Object.isFrozen(data)) return JSON.stringify(data) as string | undefined;
  return texts.get(data) ?? texts.set(data, JSON.stringify(data));
}
