import type { Profile, ProfileSummary, ProfileType } from './profile.js';

/** Search criteria (Symfony's ProfilerStorageInterface::find); every text criterion is a substring match. */
export interface ProfileQuery {
  ip?: string;
  method?: string;
  /** Substring of the URL; a leading `!` excludes URLs containing the rest (Symfony 6.4+). */
  url?: string;
  /** Part of the status code, anywhere in it, as the reference's search matches it (`40` finds 404 and 140). */
  statusCode?: string;
  /** The status code's first digits (`4`: every 4xx), for a command line that asks for a class of statuses. */
  statusCodePrefix?: string;
  /** Unix seconds, inclusive bounds. */
  start?: number;
  end?: number;
  type?: ProfileType;
  limit: number;
}

/**
 * Where profiles live. Tokens given to `read` are already validated by the caller (six lowercase hex
 * characters): no implementation builds a path or key from anything else.
 */
export interface ProfileStore {
  /** Summaries matching the query, newest first. */
  find(query: ProfileQuery): Promise<ProfileSummary[]>;
  read(token: string): Promise<Profile | undefined>;
  /** Adds or replaces the record with this token. */
  write(profile: Profile): Promise<void>;
  /** Deletes every record. */
  purge(): Promise<void>;
  /** Releases connections (network stores); absent when there is nothing to release. */
  close?(): Promise<void>;
}

/** The shared filter of `find`: stores keep their own iteration order (newest first) and call this per entry. */
export function matchesQuery(summary: ProfileSummary, query: ProfileQuery): boolean {
  if (query.ip && !summary.ip.includes(query.ip)) return false;
  // Substrings, case-sensitive, as the reference's file storage compares them (`method=get` finds nothing).
  if (query.method && !summary.method.includes(query.method)) return false;
  if (query.statusCode && !String(summary.statusCode).includes(query.statusCode)) return false;
  if (query.statusCodePrefix && !String(summary.statusCode).startsWith(query.statusCodePrefix)) return false;
  if (query.url) {
    const exclude = query.url.startsWith('!');
    const needle = exclude ? query.url.slice(1) : query.url;
    if (summary.url.includes(needle) === exclude) return false;
  }
  if (query.start !== undefined && summary.time < query.start) return false;
  if (query.end !== undefined && summary.time > query.end) return false;
  if (query.type !== undefined && summary.type !== query.type) return false;
  return true;
}
