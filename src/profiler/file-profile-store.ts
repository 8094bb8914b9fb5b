import { readdir, readFile, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { brotliCompressSync, brotliDecompress, constants } from 'node:zlib';
import { appendIndexLines, CURRENT_INDEX, deleteSegment, isIndexFile, readSegment, readSegments, sealCurrentSegment, type SegmentCache } from './index-segments.js';
import type { Profile, ProfileSummary } from './profile.js';
import { summarizeProfile } from './profile.js';
import { stringifyProfile } from './profile-json.js';
import { matchesQuery, type ProfileQuery, type ProfileStore } from './profile-store.js';
import { RecordFileWriter } from './record-file-writer.js';
import { SPARE_FOLDER, SpareRecordFiles } from './spare-record-files.js';
import { isProfileToken } from './token.js';

const decompress = promisify(brotliDecompress);
// Records written together at most (~50 µs each): a busy server queues about two per request it answers in
// an event-loop turn, and a batch must take them all, or the queue grows until records are dropped.
const MAX_BATCH = 256;
// Brotli at quality 0 compresses a typical 7 kB record to ~2.5 kB (quality 1 saves 4 % more) in about half
// the CPU time of gzip at level 1; a 16 kB window (records are a few kB) and the size hint make the
// encoder's set-up cheaper still.
function brotliOptions(size: number) {
  return { params: { [constants.BROTLI_PARAM_QUALITY]: 0, [constants.BROTLI_PARAM_LGWIN]: 14, [constants.BROTLI_PARAM_SIZE_HINT]: size } };
}

export interface FileProfileStoreOptions {
  /** `<varDir>/profiler`. */
  dir: string;
  /** Records listed; older ones are deleted a segment at a time. */
  maxRecords?: number;
  /** Records older than this many seconds are neither listed nor read, and deleted. Symfony purges after 2 days. */
  maxAge?: number;
  /** Lines per index segment; a tenth of maxRecords by default. */
  segmentRecords?: number;
  /** ms since the epoch. */
  clock?: () => number;
}

/**
 * Symfony's FileProfilerStorage, made safe for several processes writing at once: one Brotli-compressed JSON file
 * per record at `<dir>/<last 2 chars>/<token>`, and an append-only index made of
 * segments: `index.csv`, which every process appends to with single O_APPEND writes, and sealed
 * `index-<time>-<pid>-<random>.csv` files that are never written again, only deleted whole by the purge.
 * A record file is put in place before its index line is appended, so a crash at any point leaves at worst
 * one unindexed, unreadable file, which read() reports as missing. Purged record files are not unlinked but
 * kept in `<dir>/spare/` and reused by later records (see SpareRecordFiles).
 *
 * Bounds: search lists at most `maxRecords` records younger than `maxAge`; on disk, whole segments go once
 * newer segments hold `maxRecords` lines or once their newest line is older than `maxAge`, so the disk
 * holds at most about `maxRecords + segmentRecords` records per process writing, plus two segments' worth
 * of spare files and one batch.
 */
export class FileProfileStore implements ProfileStore {
  readonly dir: string;
  #maxRecords: number;
  #maxAge: number;
  #segmentRecords: number;
  #clock: () => number;
  #queue: Promise<unknown> = Promise.resolve();
  #pending: { profile: Profile; resolve: () => void; reject: (error: unknown) => void }[] = [];
  #appendedSinceCheck = 0;
  #lastPurge = Number.NEGATIVE_INFINITY;
  // Parsed sealed segments, which never change: a purge after each seal would otherwise parse them all again.
  #sealedSegments: SegmentCache = new Map();
  #spares: SpareRecordFiles;
  #files: RecordFileWriter;

  constructor({ dir, maxRecords = 1000, maxAge = 2 * 86400, segmentRecords = Math.max(1, Math.ceil(maxRecords / 10)), clock = Date.now }: FileProfileStoreOptions) {
    this.dir = dir;
    this.#maxRecords = maxRecords;
    this.#maxAge = maxAge;
    this.#segmentRecords = segmentRecords;
    this.#clock = clock;
    // A purge frees one or two segments (a segment is sealed once it holds segmentRecords lines, so it may
    // hold a batch more); writers use them up before the next.
    this.#spares = new SpareRecordFiles(dir, MAX_BATCH + 2 * this.#segmentRecords);
    this.#files = new RecordFileWriter(this.#spares);
  }

  async find(query: ProfileQuery): Promise<ProfileSummary[]> {
    const found: ProfileSummary[] = [];
    const seen = new Set<string>();
    const cutoff = this.#cutoff();
    const segments = readSegments(this.dir, this.#sealedSegments);
    const limit = Math.min(query.limit, this.#maxRecords);
    let listed = 0;
    for (let s = segments.length - 1; s >= 0; s--) {
      const { entries } = segments[s]!;
      for (let i = entries.length - 1; i >= 0 && found.length < limit; i--) {
        const entry = entries[i]!;
        if (seen.has(entry.token) || entry.time < cutoff) continue;
        seen.add(entry.token);
        if (++listed > this.#maxRecords) return found;
        if (matchesQuery(entry, query)) found.push(entry);
      }
    }
    return found;
  }

  async read(token: string): Promise<Profile | undefined> {
    if (!isProfileToken(token)) return undefined;
    let data: Buffer;
    try {
      data = await readFile(this.#pathOf(token));
    } catch {
      return undefined;
    }
    try {
      const profile = JSON.parse((await decompress(data)).toString('utf8')) as Profile;
      if (profile.token !== token || profile.time < this.#cutoff()) return undefined;
      return { ...profile, parent: profile.parent ?? undefined };
    } catch {
      return undefined;
    }
  }

  /**
   * Queues the record; records queued while a batch is being written go out together in the next one
   * (files in parallel, their index lines in as few appends as possible), so the store keeps up with a
   * busy server instead of paying every round trip once per record.
   */
  write(profile: Profile): Promise<void> {
    if (!isProfileToken(profile.token)) return Promise.reject(new TypeError(`Invalid profile token "${profile.token}".`));
    return new Promise((resolve, reject) => {
      this.#pending.push({ profile, resolve, reject });
      // The batch starts once this event-loop turn is over, so that it takes every record the turn's
      // responses queued: one index append and one maintenance check for all of them.
      if (this.#pending.length === 1) void this.#serialised(() => new Promise((go) => setImmediate(go)).then(() => this.#drain()));
    });
  }

  purge(): Promise<void> {
    return this.#serialised(() => this.#purgeAll());
  }

  /** Waits for queued writes. */
  async close(): Promise<void> {
    await this.#queue;
    await this.#spares.settled();
  }

  #serialised(task: () => Promise<void>): Promise<void> {
    const run = this.#queue.then(task);
    this.#queue = run.catch(() => undefined);
    return run;
  }

  async #drain(): Promise<void> {
    while (this.#pending.length > 0) {
      const batch = this.#pending.splice(0, MAX_BATCH);
      const outcomes = batch.map(({ profile }) => this.#writeBatchItem(profile));
      const fresh = batch.filter((_, i) => outcomes[i] === true);
      let indexError: unknown;
      try {
        if (fresh.length > 0) appendIndexLines(this.dir, fresh.map(({ profile }) => summarizeProfile(profile)));
      } catch (error) {
        indexError = error;
      }
      batch.forEach((item, i) => {
        const outcome = outcomes[i];
        if (outcome instanceof Error) item.reject(outcome);
        else if (indexError !== undefined && outcome === true) item.reject(indexError);
        else item.resolve();
      });
      try {
        this.#maintain(fresh.length);
      } catch {
        // A failed seal or purge is retried on a later batch; the records themselves are written.
      }
      // Let requests through between batches.
      if (this.#pending.length > 0) await new Promise((resolve) => setImmediate(resolve));
    }
  }

  #writeBatchItem(profile: Profile): boolean | Error {
    try {
      return this.#writeRecord(profile);
    } catch (error) {
      return error instanceof Error ? error : new Error(String(error));
    }
  }

  /** Writes the record file; true once it is in place (its index line is still to be appended). */
  #writeRecord(profile: Profile): boolean {
    const json = Buffer.from(stringifyProfile(profile));
    this.#files.write(this.#pathOf(profile.token), profile.token, brotliCompressSync(json, brotliOptions(json.length)));
    return true;
  }

  /**
   * Seals the current segment when it is full or holds lines half as old as maxAge (so a quiet app's old
   * records can go too), and purges after each seal and at most once a minute otherwise. The line count
   * is checked every quarter segment, not on every write. Synchronous, and in the write queue: a purge
   * costs a few ms of renames, and the spares it makes must be there for the next batch.
   */
  #maintain(appended: number): void {
    const now = this.#clock();
    const checkEvery = Math.max(1, Math.floor(this.#segmentRecords / 4));
    const due = now - this.#lastPurge >= Math.min(60, this.#maxAge) * 1000;
    this.#appendedSinceCheck += appended;
    if (this.#appendedSinceCheck < checkEvery && !due) return;
    this.#appendedSinceCheck = 0;
    const current = readSegment(this.dir, CURRENT_INDEX) ?? [];
    const stale = current.length > 0 && current[0]!.time < Math.floor(now / 1000) - this.#maxAge / 2;
    const full = current.length >= this.#segmentRecords;
    if (full || stale) sealCurrentSegment(this.dir, now);
    if (full || stale || due) this.#purgeOld(now);
  }

  /**
   * Deletes whole sealed segments and their records: those older than maxAge, and those behind newer
   * segments that already hold maxRecords lines. Tolerates another process purging at the same time:
   * only the process whose unlink of the segment succeeds deletes its records, and deleting is idempotent.
   */
  #purgeOld(now: number): void {
    this.#lastPurge = now;
    const cutoff = Math.floor(now / 1000) - this.#maxAge;
    const segments = readSegments(this.dir, this.#sealedSegments);
    let newer = 0;
    // Tokens a kept segment names: their file belongs to that newer line even if an expired segment names
    // the same token (a token drawn again), so it is not deleted with the expired one.
    const kept = new Set<string>();
    for (let s = segments.length - 1; s >= 0; s--) {
      const { name, entries } = segments[s]!;
      const newest = entries.reduce((max, entry) => Math.max(max, entry.time), Number.NEGATIVE_INFINITY);
      const expired = name !== CURRENT_INDEX && (newer >= this.#maxRecords || newest < cutoff);
      newer += entries.length;
      if (!expired || !deleteSegment(this.dir, name)) {
        for (const entry of entries) kept.add(entry.token);
        continue;
      }
      // Synchronous renames (~25 µs each), all at once: the spares must be there before the next batch of
      // writes, which would otherwise create files of their own.
      for (const entry of entries) if (!kept.has(entry.token)) this.#spares.retire(this.#pathOf(entry.token));
    }
  }

  async #purgeAll(): Promise<void> {
    let names: string[];
    try {
      names = await readdir(this.dir);
    } catch {
      return;
    }
    // Only what this store creates: the index segments, the two-hex-character fan-out folders and the spares.
    for (const name of names) {
      if (isIndexFile(name) || /^[0-9a-f]{2}$/.test(name) || name === SPARE_FOLDER) await rm(join(this.dir, name), { recursive: true, force: true });
    }
    this.#files.forgetFolders();
    this.#spares.clear();
  }

  // Callers validate the token first: six hex characters cannot climb out of the directory. One level of
  // 256 folders, not Symfony's two (65 536): with random tokens nearly every record would create a folder.
  #pathOf(token: string): string {
    return join(this.dir, token.slice(-2), token);
  }

  #cutoff(): number {
    return Math.floor(this.#clock() / 1000) - this.#maxAge;
  }
}
