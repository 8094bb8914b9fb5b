import { randomBytes } from 'node:crypto';
import { closeSync, fstatSync, openSync, readdirSync, readFileSync, readSync, renameSync, statSync, unlinkSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { formatIndexLine, parseIndexLine, type IndexEntry } from './profile-index.js';

/** The segment every process appends to. */
export const CURRENT_INDEX = 'index.csv';
// A sealed segment: `index-<ms when sealed>-<this process's seal count>-<pid>-<random>.csv`, numbers
// zero-padded so that names sort chronologically (the count orders seals within one millisecond).
const SEALED = /^index-\d{13}-\d{8}-\d+-[0-9a-f]{8}\.csv$/;
let seals = 0;
// POSIX guarantees atomic appends up to PIPE_BUF (4096 on Linux) for pipes; keeping each write under it
// makes a single write(2) of lines never interleave with another process's, whatever the file system.
const MAX_LINE_BYTES = 4000;

export interface IndexSegment {
  name: string;
  entries: IndexEntry[];
}

/**
 * Appends lines to the current segment with single O_APPEND writes, each under PIPE_BUF, so concurrent
 * writers (cluster workers) never interleave. A URL too long for the limit is cut to the longest beginning
 * that fits and its line marked so (`urlCut`): the record file keeps the whole URL, which search reads there.
 */
export function appendIndexLines(dir: string, entries: readonly IndexEntry[]): void {
  const chunks: Buffer[] = [];
  let chunk = '';
  let chunkBytes = 0;
  for (const entry of entries) {
    const { line, bytes } = boundedLine(entry);
    if (chunkBytes > 0 && chunkBytes + bytes > MAX_LINE_BYTES) {
      chunks.push(Buffer.from(chunk));
      chunk = '';
      chunkBytes = 0;
    }
    chunk += line;
    chunkBytes += bytes;
  }
  if (chunk !== '') chunks.push(Buffer.from(chunk));
  // Synchronous: a few microseconds for a batch, where each await would wait a whole event-loop turn,
  // which on a busy server is what made the store fall behind.
  const fd = openSync(join(dir, CURRENT_INDEX), 'a+');
  try {
    // A write cut short (a full disk) leaves half a line: the next line would be glued to it and lost
    // with it, though written. It starts on a line of its own instead.
    if (chunks.length > 0 && endsInsideLine(fd)) chunks[0] = Buffer.concat([NEWLINE_BYTES, chunks[0]!]);
    for (const data of chunks) {
      const written = writeSync(fd, data, 0, data.length);
      if (written !== data.length) throw new Error(`short write to the profiler index (${written} of ${data.length} bytes)`);
    }
  } finally {
    closeSync(fd);
  }
}

function endsInsideLine(fd: number): boolean {
  const size = fstatSync(fd).size;
  if (size === 0) return false;
  const last = Buffer.alloc(1);
  return readSync(fd, last, 0, 1, size - 1) === 1 && last[0] !== NEWLINE;
}

/**
 * The entry's line and its length in bytes; for a line over the limit, the longest beginning of the URL
 * whose marked line fits, found by bisection (a 5 000-character URL: 13 tries). Bytes, not characters, are
 * bounded, and quoting or multi-byte characters make them differ: a URL of `é` keeps about half as many
 * characters as one of ASCII. A line whose other columns alone pass the limit keeps no URL, and is written.
 */
function boundedLine(entry: IndexEntry): { line: string; bytes: number } {
  const line = formatIndexLine(entry);
  const bytes = Buffer.byteLength(line);
  if (bytes <= MAX_LINE_BYTES) return { line, bytes };
  const cut = (keep: number): string => formatIndexLine({ ...entry, url: urlBeginning(entry.url, keep), urlCut: true });
  let fits = 0;
  for (let over = entry.url.length; over - fits > 1; ) {
    const keep = Math.floor((fits + over) / 2);
    if (Buffer.byteLength(cut(keep)) <= MAX_LINE_BYTES) fits = keep;
    else over = keep;
  }
  const kept = cut(fits);
  return { line: kept, bytes: Buffer.byteLength(kept) };
}

// The first `keep` UTF-16 units, one fewer rather than half a surrogate pair (which would be written as U+FFFD).
function urlBeginning(url: string, keep: number): string {
  const last = url.charCodeAt(keep - 1);
  return url.slice(0, last >= 0xd800 && last <= 0xdbff ? keep - 1 : keep);
}

/**
 * Seals the current segment by renaming it; the next append creates a fresh one. A writer that opened the
 * old file just before the rename still lands its line in the sealed segment, which is read like any
 * other, so nothing is lost. Two processes sealing at once is harmless: the second renames a new, small
 * segment or finds none.
 */
export function sealCurrentSegment(dir: string, now: number): void {
  seals = (seals + 1) % 1e8;
  // Segments are ordered by name: one named before the newest, by a clock stepped back (or another host's
  // clock behind), would count as the oldest and be purged the moment it was sealed, its records with it.
  const at = Math.max(now, newestSealTime(dir) + 1);
  const name = `index-${String(at).padStart(13, '0')}-${String(seals).padStart(8, '0')}-${process.pid}-${randomBytes(4).toString('hex')}.csv`;
  try {
    renameSync(join(dir, CURRENT_INDEX), join(dir, name));
  } catch (error) {
    ignoreMissing(error);
  }
}

// The time in the newest sealed segment's name, 0 without one.
function newestSealTime(dir: string): number {
  let newest = 0;
  try {
    for (const name of readdirSync(dir)) if (SEALED.test(name)) newest = Math.max(newest, Number(name.slice(6, 19)));
  } catch {
    // No folder: no segment.
  }
  return newest;
}

/**
 * Every segment, oldest first, the current one last; a segment deleted meanwhile by another process is
 * skipped. Synchronous, like every function here: segments are a few kB, read in microseconds, where each
 * await on a busy server waits a whole event-loop turn (a purge made of such waits took seconds).
 */
export function readSegments(dir: string, sealedCache?: SegmentCache): IndexSegment[] {
  // The current segment before the listing: read after it, a segment another process sealed in between
  // would be in neither, and a search would miss its records for a moment. Read first, it may be sealed
  // by the time of the listing: its file (the same inode) is then read as sealed, with any lines since.
  let current = readCurrentSegment(dir);
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return [];
  }
  const sealed = names.filter((name) => SEALED.test(name)).sort();
  const segments: IndexSegment[] = [];
  if (sealedCache !== undefined) {
    const listed = new Set(sealed);
    for (const name of sealedCache.keys()) if (!listed.has(name)) sealedCache.delete(name);
  }
  for (const name of sealed) {
    const stats = statSync(join(dir, name), { throwIfNoEntry: false });
    if (stats === undefined) continue;
    if (current !== undefined && stats.ino === current.ino) current = undefined;
    const entries = sealedCache === undefined ? readSegment(dir, name) : readSealedSegment(dir, name, stats.size, sealedCache);
    if (entries !== undefined) segments.push({ name, entries });
  }
  if (current !== undefined) segments.push({ name: CURRENT_INDEX, entries: current.entries });
  return segments;
}

/** Parsed sealed segments by name, with the size they had when parsed. */
export type SegmentCache = Map<string, { size: number; entries: IndexEntry[] }>;

// A sealed segment is written no more, except by a process that opened it as the current one just before
// another sealed it: its size tells whether such a late line arrived since it was parsed.
function readSealedSegment(dir: string, name: string, size: number, cache: SegmentCache): IndexEntry[] | undefined {
  const cached = cache.get(name);
  if (cached !== undefined && cached.size === size) return cached.entries;
  const entries = readSegment(dir, name);
  if (entries !== undefined) cache.set(name, { size, entries });
  return entries;
}

// The current segment's entries and its file's inode, which a rename (sealing) keeps.
function readCurrentSegment(dir: string): { ino: number; entries: IndexEntry[] } | undefined {
  let fd: number;
  try {
    fd = openSync(join(dir, CURRENT_INDEX), 'r');
  } catch {
    return undefined;
  }
  try {
    return { ino: fstatSync(fd).ino, entries: parseSegment(readFileSync(fd, 'utf8')) };
  } finally {
    closeSync(fd);
  }
}

/**
 * The current segment's line count and its first line, the rest left unparsed: all that sealing decides
 * on, checked every few writes (parsing every line each time was most of the store's bookkeeping).
 */
export function currentSegmentHead(dir: string): { lines: number; first: IndexEntry | undefined } {
  let data: Buffer;
  try {
    data = readFileSync(join(dir, CURRENT_INDEX));
  } catch {
    return { lines: 0, first: undefined };
  }
  const end = data.indexOf(NEWLINE);
  let lines = 0;
  for (let at = end; at !== -1; at = data.indexOf(NEWLINE, at + 1)) lines++;
  return { lines, first: parseIndexLine(data.toString('utf8', 0, end === -1 ? data.length : end)) };
}

const NEWLINE = 0x0a;
const NEWLINE_BYTES = Buffer.from('\n');

/** The entries of one segment; malformed lines (a hand edit, a torn write after a power cut) are skipped. */
function readSegment(dir: string, name: string): IndexEntry[] | undefined {
  let text: string;
  try {
    text = readFileSync(join(dir, name), 'utf8');
  } catch {
    return undefined;
  }
  return parseSegment(text);
}

function parseSegment(text: string): IndexEntry[] {
  const entries: IndexEntry[] = [];
  for (const line of text.split('\n')) {
    const entry = line === '' ? undefined : parseIndexLine(line);
    if (entry !== undefined) entries.push(entry);
  }
  return entries;
}

/** Unlinks a segment; false when another process already did. */
export function deleteSegment(dir: string, name: string): boolean {
  try {
    unlinkSync(join(dir, name));
    return true;
  } catch (error) {
    ignoreMissing(error);
    return false;
  }
}

export function isIndexFile(name: string): boolean {
  return name === CURRENT_INDEX || SEALED.test(name);
}

function ignoreMissing(error: unknown): void {
  if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
}
