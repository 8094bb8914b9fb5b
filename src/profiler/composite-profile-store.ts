import type { Profile, ProfileSummary } from './profile.js';
import type { ProfileQuery, ProfileStore } from './profile-store.js';
import type { MemoryProfileStore } from './memory-profile-store.js';

/**
 * Profiles in memory in front of a durable store: a record is readable the moment the profiler stages it
 * (`add`, synchronous), and survives restarts once `write` has reached the durable store, which answers for
 * it from then on. The front keeps only what is not durable yet (and what failed to become so, within its
 * bound): a record held in memory for hundreds of requests outlives a young-generation collection or two
 * and is copied into the old one, which more than doubled the young-generation collection time with
 * the profiler on (measured: 109 ms against 272 ms for 6 000 seed requests).
 */
export class CompositeProfileStore implements ProfileStore {
  readonly front: MemoryProfileStore;
  readonly back: ProfileStore;
  // Records a search lists at most, the front's and the durable store's together (the durable store's bound).
  #maxRecords: number;

  constructor(front: MemoryProfileStore, back: ProfileStore, { maxRecords = Number.POSITIVE_INFINITY }: { maxRecords?: number } = {}) {
    this.front = front;
    this.back = back;
    this.#maxRecords = maxRecords;
  }

  add(profile: Profile): void {
    this.front.add(profile);
  }

  get(token: string): Profile | undefined {
    return this.front.get(token);
  }

  /**
   * Rejects with a PartialSearchError when the durable store fails: it carries what the front holds (the
   * records this process could not write, the newest of an outage), for a page to show with a warning.
   */
  async find(query: ProfileQuery): Promise<ProfileSummary[]> {
    let durable: ProfileSummary[];
    try {
      durable = await this.back.find(query);
    } catch (error) {
      throw new PartialSearchError(this.front.findSync(query), error);
    }
    // Other processes and instances write to the durable store too: merge both by time, newest first.
    // Records still only in memory (not yet persisted) are this process's newest and go first within a second.
    const persisted = new Set(durable.map((summary) => summary.token));
    const pending = this.front.findSync(query).filter((summary) => !persisted.has(summary.token));
    return [...pending, ...durable].sort((a, b) => b.time - a.time).slice(0, Math.min(query.limit, this.#maxRecords));
  }

  async read(token: string): Promise<Profile | undefined> {
    return this.front.get(token) ?? (await this.back.read(token));
  }

  async write(profile: Profile): Promise<void> {
    this.front.add(profile);
    await this.back.write(profile);
    this.front.forget(profile);
  }

  async purge(): Promise<void> {
    await this.front.purge();
    await this.back.purge();
  }

  async close(): Promise<void> {
    await this.back.close?.();
  }
}

/** A search the durable store could not answer: its error as the cause, and the matches held in memory. */
export class PartialSearchError extends Error {
  readonly results: ProfileSummary[];

  constructor(results: ProfileSummary[], cause: unknown) {
    super(cause instanceof Error ? cause.message : String(cause), { cause });
    this.name = 'PartialSearchError';
    this.results = results;
  }
}
