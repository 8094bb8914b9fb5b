import { randomBytes } from 'node:crypto';
import { closeSync, fstatSync, openSync, readFileSync, readSync, statSync, unlinkSync, utimesSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { makeDirSync } from '../internal/make-dir.js';
import type { GroupPart } from './record-group.js';

/** The folder, inside the store's directory, that holds one folder of record files per ring. */
export const RINGS_FOLDER = 'rings';
// `<pid>-<random>`: the random part keeps apart two rings of one process (see RING_IDLE_MS) and processes
// that share a pid (pid 1 in two containers on one volume).
const RING_NAME = /^\d{1,10}-[0-9a-f]{8}$/;
/**
 * A ring whose folder has not been touched for this long belongs to no running writer: the purge may delete
 * it once no index line names it. Writers touch their folder every quarter of it while they write, and
 * one idle for half of it starts a new ring rather than take up one the purge may be deleting.
 */
export const RING_IDLE_MS = 10 * 60_000;
// Slot files a ring keeps open at most (see RecordRing), and never more than a quarter of the process's
// open-file limit: the server's sockets need the rest.
const MAX_KEPT_OPEN = 1024;
// New rings a write starts at most when its ring's folder keeps disappearing (see write()).
const MAX_RESTARTS = 5;

/**
 * Where a record's bytes are: slot `slot` of ring `ring`, its first `length` bytes; for a record compressed
 * with others (see record-group.ts), `part` says where it is in the group once decompressed.
 */
export interface RecordLocation {
  ring: string;
  slot: number;
  length: number;
  part?: GroupPart;
}

export function isRingName(name: string): boolean {
  return RING_NAME.test(name);
}

export function ringSlotPath(ringsDir: string, { ring, slot }: Pick<RecordLocation, 'ring' | 'slot'>): string {
  return join(ringsDir, ring, String(slot));
}

/**
 * The bytes a location names: the first `length` bytes of the slot's file. Throws when the file holds fewer
 * (a torn write, or a line edited by hand), checked before a buffer that size is made. Synchronous: the
 * profiler's pages read a few kilobytes, and each hop of node's thread pool cost more than the read (a
 * record's file read through fs/promises took ~250 µs here, the same read ~35 µs synchronously).
 */
export function readSlot(ringsDir: string, location: RecordLocation): Buffer {
  const path = ringSlotPath(ringsDir, location);
  const fd = openSync(path, 'r');
  try {
    const { size } = fstatSync(fd);
    if (size < location.length) throw new Error(`${path} holds ${size} of ${location.length} bytes`);
    const data = Buffer.alloc(location.length);
    const bytesRead = readSync(fd, data, 0, location.length, 0);
    if (bytesRead !== location.length) throw new Error(`${path} holds ${bytesRead} of ${location.length} bytes`);
    return data;
  } finally {
    closeSync(fd);
  }
}

/**
 * One process's record files, `<rings>/<ring>/<slot>`, overwritten in place once the records they hold may
 * go: a slot is reused once `keepRecords` newer records have been written (its own replacement included),
 * so the newest `keepRecords` records stay readable whatever the size of the groups the slots hold. The
 * ring grows a slot whenever its oldest may not go yet: a busy server, whose slots hold groups of twenty
 * records, needs a few dozen files; a quiet one, a record a slot, up to `keepRecords`, and gives back what
 * it no longer needs when it gets busy (see #shrink). Sizing it in slots
 * instead made a busy server create hundreds of files before the ring came round, each creation costing
 * more than the whole record's writing (measured: ~780 µs a group against ~30 µs for an overwrite).
 *
 * A file per token meant creating one or renaming a purged one into place and back out (~70 µs a record
 * on ext4), and the ring needs no purge of its own: the caller sizes `keepRecords` so that the records a
 * slot held are no longer listed when it is reused. The file is not truncated: the index line gives the
 * length to read, and what follows it is ignored.
 *
 * The files of the first `keepOpen` slots stay open once created, so that overwriting one is a single
 * positioned write: opening a file by its path cost more than writing the record (measured: writing a
 * seed request's two records went from ~45 to ~19 µs). An open file would go on taking writes after
 * another process deleted the folder (`keel profiler:purge`), so the store calls revalidate() before each
 * batch.
 *
 * A crash mid-write leaves a slot that no index line names yet, or that holds half of a record whose line
 * names another token: readers check the token inside and report the record missing.
 */
export class RecordRing {
  readonly dir: string;
  readonly keepRecords: number;
  readonly keepOpen: number;
  #id = '';
  // The slots in the order they are reused: #cycle[#next] is the one written longest ago.
  #cycle: number[] = [];
  #next = 0;
  // Slot numbers given out so far, and those among them whose file was given back (see #shrink).
  #numbered = 0;
  #free: number[] = [];
  // Records written to this ring so far, and that count once each slot's content was written.
  #written = 0;
  #writtenBy: number[] = [];
  #touched = Number.NEGATIVE_INFINITY;
  // Open file descriptor by slot, for slots below keepOpen.
  #open: (number | undefined)[] = [];

  /** `dir` is the rings folder. */
  constructor(dir: string, keepRecords: number, { keepOpen = Math.min(MAX_KEPT_OPEN, Math.floor(openFilesLimit() / 4)) }: { keepOpen?: number } = {}) {
    this.dir = dir;
    this.keepRecords = keepRecords;
    this.keepOpen = Math.min(keepRecords, keepOpen);
  }

  /** The ring being written, '' before the first write. */
  get id(): string {
    return this.#id;
  }

  /** Writes the bytes of `records` records (a group, see record-group.ts) to a slot. */
  write(data: Buffer, records = 1): RecordLocation {
    const now = Date.now();
    if (this.#id === '' || now - this.#touched > RING_IDLE_MS / 2) this.#start(now);
    else if (now - this.#touched > RING_IDLE_MS / 4) this.#touch(now);
    for (let restarts = 0; ; restarts++) {
      try {
        return this.#writeSlot(data, records);
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'ENOENT' || restarts === MAX_RESTARTS) throw error;
        // The ring's folder is gone (the store was emptied): a new ring. Another process emptying the store
        // in a loop can delete the new ring too, between its creation and its first file, hence a few tries.
        this.#start(now);
      }
    }
  }

  /** Drops the ring if its folder is gone, so that the next write starts a new one instead of writing to deleted files. */
  revalidate(): void {
    if (this.#id === '') return;
    let present: boolean;
    try {
      present = statSync(join(this.dir, this.#id), { throwIfNoEntry: false }) !== undefined;
    } catch {
      present = false;
    }
    if (!present) this.reset();
  }

  /** Starts a new ring at the next write (the store's content was deleted); closes the files kept open. */
  reset(): void {
    this.#id = '';
    this.close();
  }

  /** Closes the files kept open; a later write opens them again. */
  close(): void {
    for (const fd of this.#open) if (fd !== undefined) closeSync(fd);
    this.#open = [];
  }

  #writeSlot(data: Buffer, records: number): RecordLocation {
    const reuse = this.#mayGo(this.#cycle[this.#next], records);
    if (reuse) this.#shrink(records);
    const slot = reuse ? this.#cycle[this.#next]! : (this.#free.pop() ?? this.#numbered++);
    try {
      this.#writeFile(slot, data, reuse);
    } catch (error) {
      // A new slot that could not be written (a full disk) is given back, file and number, rather than
      // left behind, one more empty file and open descriptor per failed write.
      if (!reuse) this.#giveBack(slot);
      throw error;
    }
    // A new slot goes in just before the oldest, as the newest.
    if (!reuse) this.#cycle.splice(this.#next, 0, slot);
    this.#next = (this.#next + 1) % this.#cycle.length;
    this.#written += records;
    this.#writtenBy[slot] = this.#written;
    return { ring: this.#id, slot, length: data.length };
  }

  #writeFile(slot: number, data: Buffer, reuse: boolean): void {
    let fd = this.#open[slot];
    if (fd === undefined) {
      fd = openSync(ringSlotPath(this.dir, { ring: this.#id, slot }), reuse ? 'r+' : 'w');
      if (slot < this.keepOpen) this.#open[slot] = fd;
    }
    try {
      for (let offset = 0; offset < data.length; ) offset += writeSync(fd, data, offset, data.length - offset, offset);
    } finally {
      if (slot >= this.keepOpen) closeSync(fd);
    }
  }

  // A slot outside the cycle: its descriptor closed, its file deleted, its number free for the next new slot.
  #giveBack(slot: number): void {
    const fd = this.#open[slot];
    if (fd !== undefined) {
      closeSync(fd);
      this.#open[slot] = undefined;
    }
    try {
      unlinkSync(ringSlotPath(this.dir, { ring: this.#id, slot }));
    } catch {
      // Never created, or left in place: it is overwritten when its number is given out again.
    }
    this.#free.push(slot);
  }

  /** Whether a slot's records may all be overwritten once `records` more are written: it and the records written since make keepRecords. */
  #mayGo(slot: number | undefined, records: number): boolean {
    return slot !== undefined && this.#written + records - this.#writtenBy[slot]! >= this.keepRecords;
  }

  /**
   * Gives back the file of the slot after the oldest when it may go too: the ring holds more slots than its
   * records need. That happens when slots came to hold more records each than when they were made (a server
   * that started quiet, a record a slot, then got busy, a group a slot), whose ring would otherwise keep
   * its size, and its disk use, for good. One slot a write, so that the shrinking costs little at a time.
   */
  #shrink(records: number): void {
    const after = (this.#next + 1) % this.#cycle.length;
    const slot = this.#cycle[after]!;
    if (after === this.#next || !this.#mayGo(slot, records)) return;
    this.#cycle.splice(after, 1);
    if (after < this.#next) this.#next--;
    this.#giveBack(slot);
  }

  #start(now: number): void {
    this.close();
    this.#id = `${process.pid}-${randomBytes(4).toString('hex')}`;
    this.#cycle = [];
    this.#next = 0;
    this.#numbered = 0;
    this.#free = [];
    this.#written = 0;
    this.#writtenBy = [];
    makeDirSync(join(this.dir, this.#id));
    this.#touched = now;
  }

  #touch(now: number): void {
    const seconds = now / 1000;
    utimesSync(join(this.dir, this.#id), seconds, seconds);
    this.#touched = now;
  }
}

// The soft limit on open files (Linux); 1024, a common default, where it cannot be read.
function openFilesLimit(): number {
  try {
    const limit = /^Max open files\s+(\d+|unlimited)/m.exec(readFileSync('/proc/self/limits', 'utf8'))?.[1];
    if (limit !== undefined) return limit === 'unlimited' ? Number.MAX_SAFE_INTEGER : Number(limit);
  } catch {
    // Not Linux.
  }
  return 1024;
}
