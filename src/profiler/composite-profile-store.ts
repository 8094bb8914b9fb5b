import type { Profile, ProfileSummary } from './profile.js';
import type { ProfileQuery, ProfileStore } from './profile-store.js';
import type { MemoryProfileStore } from './memory-profile-store.js';

/**
 * Recent profiles in memory in front of a durable store: a record is readable the moment the profiler
 * stages it (`add`, synchronous), and survives restarts once `write` has reached the durable store.
 */
export class CompositeProfileStore implements ProfileStore {
  readonly front: MemoryProfileStore;
  readonly back: ProfileStore;

  constructor(front: MemoryProfileStore, back: ProfileStore) {
    this.front = front;
    this.back = back;
  }

  add(profile: Profile): void {
    this.front.add(profile);
  }

  get(token: string): Profile | undefined {
    return this.front.get(token);
  }

  async find(query: ProfileQuery): Promise<ProfileSummary[]> {
    // Records only in the durable store are older than everything in memory (evicted, or from an earlier run).
    const recent = this.front.findSync(query);
    if (recent.length >= query.limit) return recent;
    const seen = new Set(recent.map((summary) => summary.token));
    const older = (await this.back.find({ ...query, limit: query.limit + seen.size })).filter((summary) => !seen.has(summary.token));
    return [...recent, ...older].slice(0, query.limit);
  }

  async read(token: string): Promise<Profile | undefined> {
    return this.front.get(token) ?? (await this.back.read(token));
  }

  async write(profile: Profile): Promise<void> {
    this.front.add(profile);
    await this.back.write(profile);
  }

  async purge(): Promise<void> {
    await this.front.purge();
    await this.back.purge();
  }
}
