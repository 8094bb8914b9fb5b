import { summarizeProfile, type Profile, type ProfileSummary } from './profile.js';
import { matchesQuery, type ProfileQuery, type ProfileStore } from './profile-store.js';

interface Entry {
  profile: Profile;
  /** Its place in the order of additions (see #order). */
  position: number;
  /** How many records were added before it: its place for good, where #rebuild renumbers `position`. */
  sequence: number;
}

// Stale queue positions are cleared away once they are this many, and half the queue.
const COMPACT_AFTER = 64;

/**
 * The newest profiles in process memory, oldest dropped first. Writes take effect synchronously (the
 * promise is already settled), which is what makes a profile readable from the moment its response is
 * sent, before anything reaches the disk.
 *
 * Held in a null-prototype object used as a dictionary, with the order of additions in an array of
 * tokens, not in a Map. V8 (Node 20) links a Map's hash table to the one replacing it each time the Map
 * grows, shrinks or is cleared, and one such table that has reached the old generation keeps all the
 * later ones, and everything they held, alive through young-generation collections. In front of the file
 * store, which holds each record for an event-loop turn, a Map made V8 move every record to the old
 * generation: ~550 kB per collection and 3 ms pauses, against ~100 kB and 1.4 ms this way (seed requests,
 * --trace-gc-nvp).
 */
export class MemoryProfileStore implements ProfileStore {
  readonly limit: number;
  // Seconds a record is listed and read for (Infinity: as long as it is held); the clock in ms.
  #maxAge: number;
  #clock: () => number;
  #entries: Record<string, Entry> = Object.create(null) as Record<string, Entry>;
  #size = 0;
  #added = 0;
  // Tokens in the order they were first added; a position whose entry was forgotten (or dropped) is skipped.
  // Absolute positions: #order[i] is position #base + i, and #head the index of the oldest one kept.
  #order: string[] = [];
  #base = 0;
  #head = 0;

  constructor({ limit = 500, maxAge = Number.POSITIVE_INFINITY, clock = Date.now }: { limit?: number; maxAge?: number; clock?: () => number } = {}) {
    this.limit = limit;
    this.#maxAge = maxAge;
    this.#clock = clock;
  }

  /** Synchronous write, for callers that must not yield (the profiler at collect time). */
  add(profile: Profile): void {
    const known = this.#entries[profile.token];
    // A token held already keeps its place, as a Map's key does.
    if (known !== undefined) {
      known.profile = profile;
      return;
    }
    this.#size++;
    this.#entries[profile.token] = { profile, position: this.#base + this.#order.length, sequence: this.#added++ };
    this.#order.push(profile.token);
    // #remove leaves #head on the oldest live position: that is the one to drop.
    while (this.#size > this.limit) this.#remove(this.#order[this.#head]!);
  }

  /** Positions the order queue holds, stale ones included: at most about twice the records held, and 64. */
  queueLength(): number {
    return this.#order.length - this.#head;
  }

  /** The record held under this token, unless it is older than maxAge. */
  get(token: string): Profile | undefined {
    const profile = this.#entries[token]?.profile;
    return profile === undefined || this.#maxAge === Number.POSITIVE_INFINITY || profile.time >= this.#cutoff() ? profile : undefined;
  }

  has(token: string): boolean {
    return this.#entries[token] !== undefined;
  }

  /** How many records were added before this one, while it is held: later additions have larger numbers. */
  sequenceOf(token: string): number | undefined {
    return this.#entries[token]?.sequence;
  }

  /** Forgets this record, if it is the one held under its token. */
  forget(profile: Profile): void {
    if (this.#entries[profile.token]?.profile !== profile) return;
    this.#remove(profile.token);
  }

  async find(query: ProfileQuery): Promise<ProfileSummary[]> {
    return this.findSync(query);
  }

  findSync(query: ProfileQuery): ProfileSummary[] {
    const found: ProfileSummary[] = [];
    const cutoff = this.#maxAge === Number.POSITIVE_INFINITY ? Number.NEGATIVE_INFINITY : this.#cutoff();
    for (let i = this.#order.length - 1; i >= this.#head && found.length < query.limit; i--) {
      const entry = this.#live(i);
      if (entry === undefined || entry.profile.time < cutoff) continue;
      const summary = summarizeProfile(entry.profile);
      if (matchesQuery(summary, query)) found.push(summary);
    }
    return found;
  }

  async read(token: string): Promise<Profile | undefined> {
    return this.get(token);
  }

  async write(profile: Profile): Promise<void> {
    this.add(profile);
  }

  async purge(): Promise<void> {
    this.#entries = Object.create(null) as Record<string, Entry>;
    this.#size = 0;
    this.#restartQueue();
  }

  // The entry added at index i of #order, if that addition is still the one held under its token.
  #cutoff(): number {
    return Math.floor(this.#clock() / 1000) - this.#maxAge;
  }

  #live(i: number): Entry | undefined {
    const entry = this.#entries[this.#order[i]!];
    return entry !== undefined && entry.position === this.#base + i ? entry : undefined;
  }

  #remove(token: string): void {
    delete this.#entries[token];
    this.#size--;
    if (this.#size === 0) {
      this.#restartQueue();
      return;
    }
    while (this.#head < this.#order.length && this.#live(this.#head) === undefined) this.#head++;
    // Positions left behind by forgotten records: past the oldest live one they are cut off, and when a
    // record stays (its write failed) while later ones come and go, the queue is rebuilt from its live
    // entries, so that it never grows past about twice what the store holds.
    const stale = this.#order.length - this.#head - this.#size;
    if (stale >= COMPACT_AFTER && stale >= this.#size) this.#rebuild();
    else if (this.#head >= COMPACT_AFTER && this.#head * 2 >= this.#order.length) {
      this.#order = this.#order.slice(this.#head);
      this.#base += this.#head;
      this.#head = 0;
    }
  }

  // Nothing held: the queue starts afresh, as a new array.
  #restartQueue(): void {
    this.#base += this.#order.length;
    this.#order = [];
    this.#head = 0;
  }

  #rebuild(): void {
    const order: string[] = [];
    const base = this.#base + this.#order.length;
    for (let i = this.#head; i < this.#order.length; i++) {
      const entry = this.#live(i);
      if (entry === undefined) continue;
      entry.position = base + order.length;
      order.push(this.#order[i]!);
    }
    this.#order = order;
    this.#base = base;
    this.#head = 0;
  }
}
