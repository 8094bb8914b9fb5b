import { summarizeProfile, type Profile, type ProfileSummary } from './profile.js';
import { matchesQuery, type ProfileQuery, type ProfileStore } from './profile-store.js';

/**
 * The newest profiles in process memory, oldest dropped first. Writes take effect synchronously (the
 * promise is already settled), which is what makes a profile readable from the moment its response is
 * sent, before anything reaches the disk.
 */
export class MemoryProfileStore implements ProfileStore {
  readonly limit: number;
  // A Map keeps insertion order and keeps a replaced entry in its place: iteration is the ring buffer.
  #profiles = new Map<string, Profile>();

  constructor({ limit = 500 }: { limit?: number } = {}) {
    this.limit = limit;
  }

  /** Synchronous write, for callers that must not yield (the profiler at collect time). */
  add(profile: Profile): void {
    this.#profiles.set(profile.token, profile);
    while (this.#profiles.size > this.limit) {
      const oldest = this.#profiles.keys().next().value as string;
      this.#profiles.delete(oldest);
    }
  }

  get(token: string): Profile | undefined {
    return this.#profiles.get(token);
  }

  has(token: string): boolean {
    return this.#profiles.has(token);
  }

  /** Forgets this record, if it is the one held under its token. */
  forget(profile: Profile): void {
    if (this.#profiles.get(profile.token) === profile) this.#profiles.delete(profile.token);
  }

  async find(query: ProfileQuery): Promise<ProfileSummary[]> {
    return this.findSync(query);
  }

  findSync(query: ProfileQuery): ProfileSummary[] {
    const found: ProfileSummary[] = [];
    const profiles = [...this.#profiles.values()];
    for (let i = profiles.length - 1; i >= 0 && found.length < query.limit; i--) {
      const summary = summarizeProfile(profiles[i]!);
      if (matchesQuery(summary, query)) found.push(summary);
    }
    return found;
  }

  async read(token: string): Promise<Profile | undefined> {
    return this.#profiles.get(token);
  }

  async write(profile: Profile): Promise<void> {
    this.add(profile);
  }

  async purge(): Promise<void> {
    this.#profiles.clear();
  }
}
