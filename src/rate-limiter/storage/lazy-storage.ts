import type { Decision, PolicySpec } from '../policies/policy.js';
import type { Storage } from './storage.js';

/**
 * A storage created on demand by an async loader, started at once: the application is built
 * synchronously while an optional module (the Redis client) is imported in the background.
 */
export class LazyStorage implements Storage {
  readonly #storage: Promise<Storage>;
  #loaded: Storage | undefined;

  constructor(load: () => Promise<Storage>) {
    this.#storage = load();
    // Failures surface on the first reservation; never as an unhandled rejection.
    this.#storage.then((storage) => (this.#loaded = storage), () => {});
  }

  async reserve(id: string, spec: PolicySpec, tokens: number, now: number, maxWait: number): Promise<Decision> {
    return (await this.#storage).reserve(id, spec, tokens, now, maxWait);
  }

  async refund(id: string, spec: PolicySpec, tokens: number, decision: Decision): Promise<void> {
    const storage = await this.#storage;
    await storage.refund?.(id, spec, tokens, decision);
  }

  lastError(): Error | undefined {
    return this.#loaded?.lastError?.();
  }

  async reset(id: string): Promise<void> {
    return (await this.#storage).reset(id);
  }

  async close(): Promise<void> {
    return (await this.#storage).close();
  }
}
