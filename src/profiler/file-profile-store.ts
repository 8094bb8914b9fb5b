import { randomBytes } from 'node:crypto';
import { mkdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { readdir, readFile, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { brotliCompressSync, brotliDecompress, constants } from 'node:zlib';
import { appendIndexLines, CURRENT_INDEX, deleteSegment, isIndexFile, readSegment, readSegments, sealCurrentSegment } from './index-segments.js';
import type { Profile, ProfileSummary } from './profile.js';
import { summarizeProfile } from './profile.js';
import { matchesQuery, type ProfileQuery, type ProfileStore } from './profile-store.js';
import { isProfileToken } from './token.js';

const decompress = promisify(brotliDecompress);
// Records written together at most: a batch of 32 holds the event loop for a few ms, then requests go through.
const MAX_BATCH = 32;
// Brotli at quality 1 compresses a typical 7 kB record to ~1 kB in a fraction of gzip's CPU time.
const BROTLI = { params: { [constants.BROTLI_PARAM_QUALITY]: 1, [constants.BROTLI_PARAM_LGWIN]: 18 } };

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
 * A new record file is created in place and its index line appended only afterwards, so a crash at any
 * point leaves at worst one unindexed, unreadable file, which read() reports as missing.
 *
 * Bounds: search lists at most `maxRecords` records younger than `maxAge`; on disk, whole segments go once
 * newer segments hold `maxRecords` lines or once their newest line is older than `maxAge`, so the disk
 * holds at most about `maxRecords + segmentRecords` records per process writing.
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
  // Folders known to exist: spares a system call per write.
  #folders = new Set<string>();
  #lastPurge = Number.NEGATIVE_INFINITY;
  #purging: Promise<void> | undefined;
  #purgeAgain = false;

  constructor({ dir, maxRecords = 1000, maxAge = 2 * 86400, segmentRecords = Math.max(1, Math.ceil(maxRecords / 10)), clock = Date.now }: FileProfileStoreOptions) {
    this.dir = dir;
    this.#maxRecords = maxRecords;
    this.#maxAge = maxAge;
    this.#segmentRecords = segmentRecords;
    this.#clock = clock;
  }

  async find(query: ProfileQuery): Promise<ProfileSummary[]> {
    const found: ProfileSummary[] = [];
    const seen = new Set<string>();
    const cutoff = this.#cutoff();
    const segments = await readSegments(this.dir);
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
      if (this.#pending.length === 1) void this.#serialised(() => this.#drain());
    });
  }

  purge(): Promise<void> {
    return this.#serialised(() => this.#purgeAll());
  }

  /** Waits for queued writes and a purge under way. */
  async close(): Promise<void> {
    await this.#queue;
    await this.#purging;
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
      await this.#maintain(fresh.length).catch(() => undefined);
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

  /**
   * Writes the record file, synchronously: compressing and creating a file of a few kB costs ~0.2 ms of
   * CPU, where the thread pool's round trips cost three times that and an event-loop turn each. True when
   * it is a new record (its index line is still to be appended).
   */
  #writeRecord(profile: Profile): boolean {
    const path = this.#pathOf(profile.token);
    const folder = join(path, '..');
    if (!this.#folders.has(folder)) {
      mkdirSync(folder, { recursive: true });
      this.#folders.add(folder);
    }
    const data = brotliCompressSync(JSON.stringify(profile), BROTLI);
    // A new record is created in place (O_CREAT|O_EXCL) and becomes visible to searches only when its index
    // line is appended: a crash mid-write leaves an unindexed file that fails to decompress, which read()
    // reports as missing. This costs a fraction of a temporary file renamed into place, whose rename ext4
    // makes pay for a data flush. Rewriting an existing record still goes through a rename, atomically.
    try {
      writeFileSync(path, data, { flag: 'wx' });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') {
        // A purge (here or in another process) may have removed the folder meanwhile.
        this.#folders.delete(folder);
        throw error;
      }
      // The file exists: this record written again, an older record with the same token, or a file left by
      // a crash mid-write. The new content replaces it and gets an index line of its own either way (search
      // lists a token once, newest first), so that no file is ever left without one.
      this.#replace(folder, path, profile.token, data);
    }
    return true;
  }



  #replace(folder: string, path: string, token: string, data: Buffer): void {
    const temporary = join(folder, `.${token}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`);
    try {
      writeFileSync(temporary, data);
      renameSync(temporary, path);
    } catch (error) {
      rmSync(temporary, { force: true });
      this.#folders.delete(folder);
      throw error;
    }
  }

  /**
   * Seals the current segment when it is full or holds lines half as old as maxAge (so a quiet app's old
   * records can go too), and purges after each seal and at most once a minute otherwise. The line count
   * is checked every quarter segment, not on every write.
   */
  async #maintain(appended: number): Promise<void> {
    const now = this.#clock();
    const checkEvery = Math.max(1, Math.floor(this.#segmentRecords / 4));
    const due = now - this.#lastPurge >= Math.min(60, this.#maxAge) * 1000;
    this.#appendedSinceCheck += appended;
    if (this.#appendedSinceCheck < checkEvery && !due) return;
    this.#appendedSinceCheck = 0;
    const current = (await readSegment(this.dir, CURRENT_INDEX)) ?? [];
    const stale = current.length > 0 && current[0]!.time < Math.floor(now / 1000) - this.#maxAge / 2;
    if (current.length >= this.#segmentRecords || stale) await sealCurrentSegment(this.dir, now);
    // Purging deletes a whole segment's records: done beside the write queue, not in it, so that new
    // records never wait for hundreds of unlinks. Only sealed segments are purged, which no write touches.
    if (current.length >= this.#segmentRecords || stale || due) this.#requestPurge();
  }

  /** Starts a purge, or has the one under way run once more when it ends. */
  #requestPurge(): void {
    if (this.#purging !== undefined) {
      this.#purgeAgain = true;
      return;
    }
    const run = async (): Promise<void> => {
      do {
        this.#purgeAgain = false;
        await this.#purgeOld(this.#clock());
      } while (this.#purgeAgain);
    };
    this.#purging = run()
      .catch(() => undefined)
      .finally(() => (this.#purging = undefined));
  }

  /**
   * Deletes whole sealed segments and their records: those older than maxAge, and those behind newer
   * segments that already hold maxRecords lines. Tolerates another process purging at the same time:
   * only the process whose unlink of the segment succeeds deletes its records, and deleting is idempotent.
   */
  async #purgeOld(now: number): Promise<void> {
    this.#lastPurge = now;
    const cutoff = Math.floor(now / 1000) - this.#maxAge;
    const segments = await readSegments(this.dir);
    let newer = 0;
    // Tokens a kept segment names: their file belongs to that newer line even if an expired segment names
    // the same token (a token drawn again), so it is not deleted with the expired one.
    const kept = new Set<string>();
    for (let s = segments.length - 1; s >= 0; s--) {
      const { name, entries } = segments[s]!;
      const newest = entries.reduce((max, entry) => Math.max(max, entry.time), Number.NEGATIVE_INFINITY);
      const expired = name !== CURRENT_INDEX && (newer >= this.#maxRecords || newest < cutoff);
      newer += entries.length;
      if (!expired || !(await deleteSegment(this.dir, name))) {
        for (const entry of entries) kept.add(entry.token);
        continue;
      }
      const doomed = entries.filter((entry) => !kept.has(entry.token));
      for (let i = 0; i < doomed.length; i += 32) {
        await Promise.all(doomed.slice(i, i + 32).map((entry) => rm(this.#pathOf(entry.token), { force: true })));
      }
    }
  }

  async #purgeAll(): Promise<void> {
    let names: string[];
    try {
      names = await readdir(this.dir);
    } catch {
      return;
    }
    // Only what this store creates: the index segments and the two-hex-character fan-out folders.
    for (const name of names) {
      if (isIndexFile(name) || /^[0-9a-f]{2}$/.test(name)) await rm(join(this.dir, name), { recursive: true, force: true });
    }
    this.#folders.clear();
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
