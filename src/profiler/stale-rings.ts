import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { isRingName, RING_IDLE_MS } from './record-ring.js';

/**
 * The rings, in the rings folder, that the purge may delete: no index line names them (`named`), they are
 * not this process's own, and their folder has not been touched for RING_IDLE_MS. A writer touches its
 * folder while it writes, so a ring still being written is never one of them, even before its first index
 * line is appended.
 */
export function staleRings(ringsDir: string, named: ReadonlySet<string>, own: string): string[] {
  let names: string[];
  try {
    names = readdirSync(ringsDir);
  } catch {
    return [];
  }
  const idleSince = Date.now() - RING_IDLE_MS;
  return names.filter((name) => {
    if (!isRingName(name) || named.has(name) || name === own) return false;
    const modified = statSync(join(ringsDir, name), { throwIfNoEntry: false })?.mtimeMs;
    return modified !== undefined && modified < idleSince;
  });
}

/**
 * Symfony's layout, which earlier versions of the file store used: a folder per last two token characters,
 * and a folder of purged files kept for reuse. Their index lines name no ring, so nothing reads them.
 */
export function isEarlierLayoutFolder(name: string): boolean {
  return /^[0-9a-f]{2}$/.test(name) || name === 'spare';
}
