import type { IndexSegment } from './index-segments.js';
import type { IndexEntry } from './profile-index.js';

/**
 * The index lines the file store lists, newest first (the reference reads its index.csv from the end): a
 * token once, by its newest line; none older than `cutoff` (Unix seconds) or naming no record (a line of
 * the earlier layout); at most `maxRecords`, since segments outlive that bound. Search and reads walk the
 * same lines, so that a record is read exactly when it is listed.
 */
export function* listedEntries(segments: readonly IndexSegment[], cutoff: number, maxRecords: number): Generator<IndexEntry> {
  const seen = new Set<string>();
  for (let s = segments.length - 1; s >= 0; s--) {
    const { entries } = segments[s]!;
    for (let i = entries.length - 1; i >= 0; i--) {
      const entry = entries[i]!;
      if (seen.has(entry.token) || entry.time < cutoff || entry.location === undefined) continue;
      seen.add(entry.token);
      yield entry;
      if (seen.size >= maxRecords) return;
    }
  }
}
