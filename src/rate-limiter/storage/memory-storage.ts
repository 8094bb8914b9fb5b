import { createPolicy } from '../policies/create-policy.js';
import type { Decision, Policy, PolicySpec, PolicyState } from '../policies/policy.js';
import type { Storage } from './storage.js';

export interface MemoryStorageOptions {
  /** Most keys held; past it the oldest key is dropped (its client starts afresh). */
  maxKeys?: number;
  /** Expired entries looked at per write: sweeping costs a bounded amount on each request. */
  sweepBatch?: number;
}

interface Entry {
  state: PolicyState;
  expiresAt: number;
}

/**
 * Limiter state in this process's memory: the embedded default. A Map in creation order lets each new
 * key sweep expired entries from the oldest end, so memory stays bounded without a timer.
 * Not shared between processes: under node:cluster, use the Redis storage.
 */
export class MemoryStorage implements Storage {
  readonly #entries = new Map<string, Entry>();
  readonly #policies = new WeakMap<PolicySpec, Policy>();
  readonly #maxKeys: number;
  readonly #sweepBatch: number;

  constructor({ maxKeys = 100_000, sweepBatch = 8 }: MemoryStorageOptions = {}) {
    this.#maxKeys = maxKeys;
    this.#sweepBatch = sweepBatch;
  }

  get size(): number {
    return this.#entries.size;
  }

  reserve(id: string, spec: PolicySpec, tokens: number, now: number, maxWait: number): Promise<Decision> {
    try {
      return Promise.resolve(this.reserveNow(id, spec, tokens, now, maxWait));
    } catch (error) {
      return Promise.reject(error);
    }
  }

  /** The synchronous core of `reserve`. */
  reserveNow(id: string, spec: PolicySpec, tokens: number, now: number, maxWait: number): Decision {
    const entry = this.#entries.get(id);
    const current = entry !== undefined && entry.expiresAt >= now ? entry.state : undefined;
    const { decision, state, expiresAt } = this.#policy(spec).reserve(current, tokens, now, maxWait);
    if (state !== undefined && expiresAt !== undefined) {
      if (entry !== undefined) {
        // Updated in place: the Map keeps creation order, which the sweep walks oldest first.
        entry.state = state;
        entry.expiresAt = expiresAt;
      } else {
        this.#entries.set(id, { state, expiresAt });
        this.#sweep(now);
      }
    }
    return decision;
  }

  reset(id: string): Promise<void> {
    this.#entries.delete(id);
    return Promise.resolve();
  }

  close(): Promise<void> {
    this.#entries.clear();
    return Promise.resolve();
  }

  #policy(spec: PolicySpec): Policy {
    let policy = this.#policies.get(spec);
    if (policy === undefined) this.#policies.set(spec, (policy = createPolicy(spec)));
    return policy;
  }

  #sweep(now: number): void {
    let looked = 0;
    for (const [id, entry] of this.#entries) {
      if (this.#entries.size > this.#maxKeys || entry.expiresAt < now) this.#entries.delete(id);
      else if (++looked >= this.#sweepBatch) break;
    }
  }
}
