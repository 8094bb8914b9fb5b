/** What a profile was recorded for. Symfony 6.4+ also records console commands (`command`); keel serves HTTP only. */
export type ProfileType = 'request';

/**
 * One profiled request: the index fields every store can filter on, the family links (an error
 * sub-request's profile is a child of the failed request's), and each collector's data by collector name.
 * Plain data on purpose: it is stored as JSON and read back by another process after a restart.
 */
export interface Profile {
  token: string;
  /** Token of the profile of the request this one was a sub-request of. */
  parent: string | undefined;
  children: string[];
  /** Unix time in seconds, as in Symfony's index.csv. */
  time: number;
  method: string;
  /** Absolute URL with the query string. */
  url: string;
  /** Client IP after trusted-proxy resolution. */
  ip: string;
  statusCode: number;
  type: ProfileType;
  /** Collector name → what it collected. */
  collectors: Record<string, unknown>;
}

/** The index columns of a profile (Symfony's index.csv line): what search results list. */
export type ProfileSummary = Pick<Profile, 'token' | 'ip' | 'method' | 'url' | 'time' | 'parent' | 'statusCode' | 'type'>;

/** The index columns alone, from a profile or anything carrying them (an index entry and its location). */
export function summarizeProfile({ token, ip, method, url, time, parent, statusCode, type }: ProfileSummary): ProfileSummary {
  return { token, ip, method, url, time, parent, statusCode, type };
}
