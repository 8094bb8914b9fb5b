import type { Profile, ProfileSummary } from './profile.js';
import type { ProfileQuery, ProfileStore } from './profile-store.js';

/**
 * A store created by an async loader, started at once: the application is built synchronously while an
 * optional module (the Redis client) is imported in the background, and never imported when not configured.
 */
export class LazyProfileStore implements ProfileStore {
  readonly #store: Promise<ProfileStore>;

  constructor(load: () => Promise<ProfileStore>) {
    this.#store = load();
    // Failures surface on the first use (a logged write failure, an empty search); never as an unhandled rejection.
    this.#store.catch(() => {});
  }

  async find(query: ProfileQuery): Promise<ProfileSummary[]> {
    return (await this.#store).find(query);
  }

  async read(token: string): Promise<Profile | undefined> {
    return (await this.#store).read(token);
  }

  async write(profile: Profile): Promise<void> {
    return (await this.#store).write(profile);
  }

  async purge(): Promise<void> {
    return (await this.#store).purge();
  }

  async close(): Promise<void> {
    const store = await this.#store.catch(() => undefined);
    await store?.close?.();
  }
}
