import { randomBytes } from 'node:crypto';
import { access, appendFile, mkdir, readdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { gunzip, gzip } from 'node:zlib';
import type { Profile, ProfileSummary } from './profile.js';
import { summarizeProfile } from './profile.js';
import { formatIndexLine, parseIndexLine } from './profile-index.js';
import { matchesQuery, type ProfileQuery, type ProfileStore } from './profile-store.js';
import { isProfileToken } from './token.js';

const gzipAsync = promisify(gzip);
const gunzipAsync = promisify(gunzip);

export interface FileProfileStoreOptions {
  /** `<varDir>/profiler`. */
  dir: string;
  /** Records kept; the oldest are deleted beyond it. */
  maxRecords?: number;
  /** Records older than this many seconds are deleted. Symfony purges after 2 days. */
  maxAge?: number;
  /** ms since the epoch. */
  clock?: () => number;
}

/**
 * Symfony's FileProfilerStorage layout: one gzip'd JSON file per record at
 * `<dir>/<last 2 chars>/<chars -4..-3>/<token>` and an append-only `index.csv`. A record file is
 * written to a temporary name and renamed, and its index line appended only afterwards, so a crash
 * leaves at worst an orphan temporary file that nothing reads. Writes are serialised in this process.
 */
export class FileProfileStore implements ProfileStore {
  readonly dir: string;
  #maxRecords: number;
  #maxAge: number;
  #clock: () => number;
  #queue: Promise<unknown> = Promise.resolve();
  // Loaded on the first write: how many index lines there are and the oldest time, to know when to prune.
  #stats: { lines: number; oldest: number } | undefined;

  constructor({ dir, maxRecords = 1000, maxAge = 2 * 86400, clock = Date.now }: FileProfileStoreOptions) {
    this.dir = dir;
    this.#maxRecords = maxRecords;
    this.#maxAge = maxAge;
    this.#clock = clock;
  }

  async find(query: ProfileQuery): Promise<ProfileSummary[]> {
    const found: ProfileSummary[] = [];
    const entries = await this.#readIndex();
    for (let i = entries.length - 1; i >= 0 && found.length < query.limit; i--) {
      if (matchesQuery(entries[i]!, query)) found.push(entries[i]!);
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
      const profile = JSON.parse((await gunzipAsync(data)).toString('utf8')) as Profile;
      return profile.token === token ? { ...profile, parent: profile.parent ?? undefined } : undefined;
    } catch {
      return undefined;
    }
  }

  write(profile: Profile): Promise<void> {
    const run = this.#queue.then(() => this.#write(profile));
    this.#queue = run.catch(() => undefined);
    return run;
  }

  purge(): Promise<void> {
    const run = this.#queue.then(() => this.#purge());
    this.#queue = run.catch(() => undefined);
    return run;
  }

  async #write(profile: Profile): Promise<void> {
    if (!isProfileToken(profile.token)) throw new TypeError(`Invalid profile token "${profile.token}".`);
    const path = this.#pathOf(profile.token);
    const folder = join(path, '..');
    await mkdir(folder, { recursive: true });
    const isNew = await access(path).then(() => false, () => true);
    const temporary = join(folder, `.${profile.token}.${randomBytes(4).toString('hex')}.tmp`);
    await writeFile(temporary, await gzipAsync(JSON.stringify(profile), { level: 3 }));
    await rename(temporary, path);
    if (!isNew) return;
    await appendFile(this.#indexPath, formatIndexLine(summarizeProfile(profile)));
    this.#stats ??= await this.#loadStats();
    this.#stats.lines++;
    if (this.#stats.lines === 1) this.#stats.oldest = profile.time;
    if (this.#stats.lines > this.#maxRecords || this.#stats.oldest < this.#nowSeconds() - this.#maxAge) await this.#prune();
  }

  /** Keeps the newest `maxRecords` records younger than `maxAge`; rewrites the index atomically, then deletes files. */
  async #prune(): Promise<void> {
    const entries = await this.#readIndex();
    const cutoff = this.#nowSeconds() - this.#maxAge;
    const young = entries.filter((entry) => entry.time >= cutoff);
    const kept = young.slice(Math.max(0, young.length - this.#maxRecords));
    const keptTokens = new Set(kept.map((entry) => entry.token));
    const temporary = `${this.#indexPath}.${randomBytes(4).toString('hex')}.tmp`;
    await writeFile(temporary, kept.map(formatIndexLine).join(''));
    await rename(temporary, this.#indexPath);
    for (const entry of entries) {
      if (!keptTokens.has(entry.token)) await rm(this.#pathOf(entry.token), { force: true });
    }
    this.#stats = { lines: kept.length, oldest: kept[0]?.time ?? Number.POSITIVE_INFINITY };
  }

  async #purge(): Promise<void> {
    let names: string[];
    try {
      names = await readdir(this.dir);
    } catch {
      return;
    }
    // Only what this store creates: index.csv and the two-hex-character fan-out folders.
    for (const name of names) {
      if (name === 'index.csv' || /^[0-9a-f]{2}$/.test(name)) await rm(join(this.dir, name), { recursive: true, force: true });
    }
    this.#stats = { lines: 0, oldest: Number.POSITIVE_INFINITY };
  }

  async #loadStats(): Promise<{ lines: number; oldest: number }> {
    const entries = await this.#readIndex();
    return { lines: entries.length, oldest: entries.reduce((min, entry) => Math.min(min, entry.time), Number.POSITIVE_INFINITY) };
  }

  async #readIndex(): Promise<ProfileSummary[]> {
    let text: string;
    try {
      text = await readFile(this.#indexPath, 'utf8');
    } catch {
      return [];
    }
    const entries: ProfileSummary[] = [];
    for (const line of text.split('\n')) {
      const entry = line === '' ? undefined : parseIndexLine(line);
      if (entry !== undefined) entries.push(entry);
    }
    return entries;
  }

  get #indexPath(): string {
    return join(this.dir, 'index.csv');
  }

  // Callers validate the token first: six hex characters cannot climb out of the directory.
  #pathOf(token: string): string {
    return join(this.dir, token.slice(-2), token.slice(-4, -2), token);
  }

  #nowSeconds(): number {
    return Math.floor(this.#clock() / 1000);
  }
}
