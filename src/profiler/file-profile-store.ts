import { readdirSync } from 'node:fs';
import { readdir, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { appendIndexLines, CURRENT_INDEX, currentSegmentHead, deleteSegment, isIndexFile, readSegments, sealCurrentSegment, type SegmentCache } from './index-segments.js';
import type { Profile, ProfileSummary } from './profile.js';
import { summarizeProfile } from './profile.js';
import type { IndexEntry } from './profile-index.js';
import { type CollectorTexts, profilePieces } from './profile-json.js';
import { matchesQuery, type ProfileQuery, type ProfileStore } from './profile-store.js';
import { GroupReader, groupTexts, packRecords } from './record-group.js';
import { readSlot, RecordRing, RINGS_FOLDER, type RecordLocation } from './record-ring.js';
import { removeEachWhileWritten, removeWhileWritten } from './remove-while-written.js';
import { isEarlierLayoutFolder, staleRings } from './stale-rings.js';
import { listedEntries } from './listed-entries.js';
import { defaultSegmentRecords, MAX_BATCH, RING_SWEEP_MS, sealCheckInterval } from './file-store-sizing.js';
import { isProfileToken } from './token.js';

export interface FileProfileStoreOptions {
  /** `<varDir>/profiler`. */
  dir: string;
  /** Records listed; older ones are deleted a segment at a time. */
  maxRecords?: number;
  /** Records older than this many seconds are neither listed nor read, and deleted. Symfony purges after 2 days. */
  maxAge?: number;
  /** Lines per index segment; a quarter of maxRecords by default. */
  segmentRecords?: number;
  /** ms since the epoch. */
  clock?: () => number;
}

/**
 * Symfony's FileProfilerStorage, made safe for several processes writing at once: Brotli-compressed JSON
 * files, each of a record or of records written together (see record-group.ts), and an append-only index
 * of segments: `index.csv`, which every process appends to with single O_APPEND writes, and sealed
 * `index-<time>-<pid>-<random>.csv` files, never written again, only deleted whole by the purge. Each
 * process writes its record files in a ring of its own, `<dir>/rings/<pid>-<random>/<slot>` (RecordRing),
 * named by the index line: Symfony's `<dir>/<token fan-out>/<token>` cost a file creation per record.
 * A record file is in place before its index line is appended, so a crash at any point leaves at worst
 * one unindexed slot, or a slot whose content names another token, which read() reports as missing.
 * Bounds: search lists at most `maxRecords` records younger than `maxAge`; on disk, whole segments go once
 * newer segments hold `maxRecords` lines or once their newest line is older than `maxAge`, each process
 * keeps the files of its newest `maxRecords` plus one batch of records, and the ring of a process gone
 * (restarted, or idle for RING_IDLE_MS) is deleted once no index line names it.
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
  #lastRingSweep = Number.NEGATIVE_INFINITY;
  // Parsed sealed segments, which never change: a purge after each seal would otherwise parse them all again.
  #sealedSegments: SegmentCache = new Map();
  #ring: RecordRing;
  #ringsDir: string;
  // Rings and folders of an earlier layout being deleted in the background.
  #removals = new Set<Promise<void>>();
  #legacyChecked = false;
  #groups = new GroupReader();

  constructor({ dir, maxRecords = 1000, maxAge = 2 * 86400, segmentRecords = defaultSegmentRecords(maxRecords), clock = Date.now }: FileProfileStoreOptions) {
    this.dir = dir;
    this.#maxRecords = maxRecords;
    this.#maxAge = maxAge;
    this.#segmentRecords = segmentRecords;
    this.#clock = clock;
    this.#ringsDir = join(dir, RINGS_FOLDER);
    // A slot is reused after maxRecords newer records of this process, plus a batch whose index lines may
    // not be appended yet: the records it held are then past the listing, whatever the other processes wrote.
    this.#ring = new RecordRing(this.#ringsDir, maxRecords + MAX_BATCH);
  }

  async find(query: ProfileQuery): Promise<ProfileSummary[]> {
    const found: ProfileSummary[] = [];
    for (const entry of this.#listed()) {
      if (found.length >= query.limit) break;
      const summary = entry.urlCut === true ? this.#withWholeUrl(entry, query) : entry;
      if (summary !== undefined && matchesQuery(summary, query)) found.push(summarizeProfile(summary));
    }
    return found;
  }

  async read(token: string): Promise<Profile | undefined> {
    if (!isProfileToken(token)) return undefined;
    const location = this.#locate(token);
    const profile = location === undefined ? undefined : this.#recordAt(token, location);
    return profile === undefined || profile.time < this.#cutoff() ? undefined : { ...profile, parent: profile.parent ?? undefined };
  }

  /**
   * Queues the record; records queued while a batch is being written go out together in the next one
   * (their files one after the other, their index lines in as few appends as possible), so the store keeps up with a
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

  /** Waits for queued writes and background deletions, and closes the record files kept open. */
  async close(): Promise<void> {
    await this.#queue;
    this.#ring.close();
    await Promise.all(this.#removals);
  }

  /** Where the newest index line for the token says its record is, if find() lists it. */
  #locate(token: string): RecordLocation | undefined {
    for (const entry of this.#listed()) if (entry.token === token) return entry.location;
    return undefined;
  }

  // A slot gone, torn or rewritten with other records reads as no record, whichever step notices.
  #recordAt(token: string, location: RecordLocation): Profile | undefined {
    try {
      const profile = JSON.parse(this.#groups.record(readSlot(this.#ringsDir, location), location.part)) as Profile;
      return profile.token === token ? profile : undefined;
    } catch {
      return undefined;
    }
  }

  /**
   * The summary of a line whose URL is cut, with the whole URL from its record, for search to match and
   * list it as Redis does; read only once the other criteria match. A record no longer readable is left out.
   */
  #withWholeUrl(entry: IndexEntry, query: ProfileQuery): ProfileSummary | undefined {
    if (!matchesQuery(entry, { ...query, url: undefined })) return undefined;
    const url = this.#recordAt(entry.token, entry.location!)?.url;
    return url === undefined ? undefined : { ...entry, url };
  }

  #listed(): Generator<IndexEntry> {
    return listedEntries(readSegments(this.dir, this.#sealedSegments), this.#cutoff(), this.#maxRecords);
  }

  #serialised(task: () => Promise<void>): Promise<void> {
    const run = this.#queue.then(task);
    this.#queue = run.catch(() => undefined);
    return run;
  }

  async #drain(): Promise<void> {
    while (this.#pending.length > 0) {
      const batch = this.#pending.length <= MAX_BATCH ? this.#pending : this.#pending.splice(0, MAX_BATCH);
      if (batch === this.#pending) this.#pending = []; // a new array, not one kept for life (see MemoryProfileStore)
      // One stat a batch: the ring's files stay open, and another process may have emptied the store.
      this.#ring.revalidate();
      const outcomes = this.#writeBatch(batch.map(({ profile }) => profile));
      const fresh = outcomes.filter((outcome): outcome is IndexEntry => !(outcome instanceof Error));
      let indexError: unknown;
      try {
        if (fresh.length > 0) appendIndexLines(this.dir, fresh);
      } catch (error) {
        indexError = error;
      }
      batch.forEach((item, i) => {
        const outcome = outcomes[i]!;
        if (outcome instanceof Error) item.reject(outcome);
        else if (indexError !== undefined) item.reject(indexError);
        else item.resolve();
      });
      try {
        this.#maintain(fresh.length);
      } catch {
        // A failed seal or purge is retried on a later batch; the records themselves are written.
      }
      if (this.#pending.length > 0) await new Promise((resolve) => setImmediate(resolve)); // requests go first
    }
  }

  /** Writes the records, a group per slot; each one's index entry once its group is in place, or its error. */
  #writeBatch(profiles: readonly Profile[]): (IndexEntry | Error)[] {
    const outcomes: (IndexEntry | Error)[] = [];
    const texts: { index: number; pieces: string[]; size: number }[] = [];
    const collectorTexts: CollectorTexts = new Map(); // a family's error: one text for its two records
    profiles.forEach((profile, index) => {
      try {
        const pieces = profilePieces(profile, collectorTexts);
        texts.push({ index, pieces, size: pieces.reduce((sum, piece) => sum + piece.length, 0) });
      } catch (error) {
        outcomes[index] = asError(error);
      }
    });
    for (const group of groupTexts(texts)) {
      try {
        const { data, parts } = packRecords(group.map(({ pieces }) => pieces));
        const at = this.#ring.write(data, group.length);
        group.forEach(({ index }, i) => (outcomes[index] = { ...summarizeProfile(profiles[index]!), location: parts[i] ? { ...at, part: parts[i] } : at }));
      } catch (error) {
        for (const { index } of group) outcomes[index] = asError(error);
      }
    }
    return outcomes;
  }

  /**
   * Seals the current segment when it is full or holds lines half as old as maxAge (so a quiet app's old
   * records can go too), and purges after each seal and at most once a minute otherwise. The line count
   * is checked every quarter segment, not on every write. Synchronous, and in the write queue: reading
   * the segments is a few system calls, where each await on a busy server waits a whole event-loop turn.
   */
  #maintain(appended: number): void {
    const now = this.#clock();
    const checkEvery = sealCheckInterval(this.#segmentRecords);
    const due = now - this.#lastPurge >= Math.min(60, this.#maxAge) * 1000;
    this.#appendedSinceCheck += appended;
    if (this.#appendedSinceCheck < checkEvery && !due) return;
    this.#appendedSinceCheck = 0;
    const { lines, first } = currentSegmentHead(this.dir);
    const stale = first !== undefined && first.time < Math.floor(now / 1000) - this.#maxAge / 2;
    const full = lines >= this.#segmentRecords;
    if (full || stale) sealCurrentSegment(this.dir, now);
    if (full || stale || due) this.#purgeOld(now);
  }

  /**
   * Deletes whole sealed segments: those older than maxAge, and those behind newer segments that already
   * hold maxRecords lines; then, at most once a minute (they only matter after a restart), the rings no
   * remaining line names, once their writer is gone. A running writer's own records need no deleting: its
   * ring overwrites them. Tolerates another process purging at the same time: unlinking a segment or a
   * ring twice is harmless.
   */
  #purgeOld(now: number): void {
    this.#lastPurge = now;
    const cutoff = Math.floor(now / 1000) - this.#maxAge;
    const segments = readSegments(this.dir, this.#sealedSegments);
    const sweepRings = now - this.#lastRingSweep >= RING_SWEEP_MS;
    let newer = 0;
    const named = new Set<string>();
    for (let s = segments.length - 1; s >= 0; s--) {
      const { name, entries } = segments[s]!;
      const newest = entries.reduce((max, entry) => Math.max(max, entry.time), Number.NEGATIVE_INFINITY);
      const expired = name !== CURRENT_INDEX && (newer >= this.#maxRecords || newest < cutoff);
      newer += entries.length;
      if (expired && deleteSegment(this.dir, name)) continue;
      if (sweepRings) for (const entry of entries) if (entry.location !== undefined) named.add(entry.location.ring);
    }
    if (!sweepRings) return;
    this.#lastRingSweep = now;
    for (const ring of staleRings(this.#ringsDir, named, this.#ring.id)) this.#removeInBackground(join(this.#ringsDir, ring));
    if (!this.#legacyChecked) this.#purgeLegacyLayout();
  }

  // An earlier layout's folders (see isEarlierLayoutFolder), once per store.
  #purgeLegacyLayout(): void {
    this.#legacyChecked = true;
    for (const name of readdirSync(this.dir)) if (isEarlierLayoutFolder(name)) this.#removeInBackground(join(this.dir, name));
  }

  #removeInBackground(path: string): void {
    const removal: Promise<void> = rm(path, { recursive: true, force: true })
      .catch(() => undefined)
      .finally(() => this.#removals.delete(removal));
    this.#removals.add(removal);
  }

  async #purgeAll(): Promise<void> {
    let names: string[];
    try {
      names = await readdir(this.dir);
    } catch {
      return;
    }
    // Only what this store creates: the index segments and the rings (and an earlier layout's folders).
    // Other processes may go on writing meanwhile, creating slot files and new rings: each ring is deleted
    // on its own, retried when a file appears in it during the deletion, and a folder that still fills up
    // is left to the stale-ring sweep, since no index line names what it holds any more.
    for (const name of names) {
      if (name === RINGS_FOLDER) await removeEachWhileWritten(this.#ringsDir);
      else if (isIndexFile(name) || isEarlierLayoutFolder(name)) await removeWhileWritten(join(this.dir, name));
    }
    this.#ring.reset();
  }

  #cutoff(): number {
    return Math.floor(this.#clock() / 1000) - this.#maxAge;
  }
}

const asError = (error: unknown): Error => (error instanceof Error ? error : new Error(String(error)));
