import { randomBytes } from 'node:crypto';
import { mkdirSync, renameSync } from 'node:fs';
import { readdir, rm } from 'node:fs/promises';
import { join } from 'node:path';

/** The folder, inside the store's directory, where purged record files wait to be reused. */
export const SPARE_FOLDER = 'spare';
// Purged files are named `<pid>-<random>-<count>`: never six hex characters, so nothing mistakes one for a
// record; the random part keeps processes apart that share a pid (pid 1 in two containers on one volume).
const SPARE_NAME = /^\d+-[0-9a-f]{8}-\d+$/;
const RUN = randomBytes(4).toString('hex');
// How often an empty pool looks for files other processes retired.
const REFILL_INTERVAL_MS = 1000;

/**
 * Purged record files kept for reuse. Creating a file is by far the dearest step of writing a record on
 * ext4 (a few hundred µs of kernel time, against ~25 µs to rename one and overwrite it in place), and so is
 * unlinking one: the purge moves expired records here instead, and writers rename them to their new
 * token's path and overwrite them. Several processes share the folder: a rename is atomic, so when two
 * reach for the same file, one gets it and the other ENOENT and takes the next.
 *
 * A file in the pool still holds the purged record it was; a crash between taking it and overwriting it
 * leaves a file whose content names another token (or fails to decompress), which readers reject.
 */
export class SpareRecordFiles {
  readonly dir: string;
  readonly capacity: number;
  #names: string[] = [];
  #count = 0;
  #folderReady = false;
  #lastRefill = Number.NEGATIVE_INFINITY;
  #refilling: Promise<void> | undefined;

  /** `dir` is the store's directory; at most `capacity` files are kept, the rest are deleted. */
  constructor(dir: string, capacity: number) {
    this.dir = join(dir, SPARE_FOLDER);
    this.capacity = capacity;
  }

  get size(): number {
    return this.#names.length;
  }

  /**
   * Moves a spare file to `target` (replacing whatever is there): true when one was taken, false when
   * the pool is empty, in which case a look for files retired by other processes is started.
   */
  take(target: string): boolean {
    while (this.#names.length > 0) {
      const name = this.#names.pop()!;
      try {
        renameSync(join(this.dir, name), target);
        return true;
      } catch (error) {
        // Taken by another process meanwhile: try the next one.
        if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
      }
    }
    this.#refillSoon();
    return false;
  }

  /** Moves a purged record into the pool, or deletes it when the pool is full. A missing file is no error. */
  retire(path: string): void {
    if (this.#names.length >= this.capacity) {
      void rm(path, { force: true }).catch(() => undefined);
      return;
    }
    const name = `${process.pid}-${RUN}-${++this.#count}`;
    try {
      if (!this.#folderReady) {
        mkdirSync(this.dir, { recursive: true });
        this.#folderReady = true;
      }
      renameSync(path, join(this.dir, name));
      this.#names.push(name);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') this.#folderReady = false;
    }
  }

  /** Forgets the pool (its folder is deleted with the store's content). */
  clear(): void {
    this.#names = [];
    this.#folderReady = false;
  }

  /** Settles once a refill under way, if any, is done. */
  async settled(): Promise<void> {
    await this.#refilling;
  }

  #refillSoon(): void {
    const now = Date.now();
    if (this.#refilling !== undefined || now - this.#lastRefill < REFILL_INTERVAL_MS) return;
    this.#lastRefill = now;
    this.#refilling = readdir(this.dir)
      .then((names) => {
        const known = new Set(this.#names);
        for (const name of names) if (SPARE_NAME.test(name) && !known.has(name) && this.#names.length < this.capacity) this.#names.push(name);
      })
      .catch(() => undefined)
      .finally(() => (this.#refilling = undefined));
  }
}
