import { createPolicy } from '../policies/create-policy.js';
import type { Decision, Policy, PolicySpec, PolicyState } from '../policies/policy.js';
import type { Storage } from './storage.js';

export interface MemoryStorageOptions {
  /** Most keys held; past it the least recently used key is dropped (its client starts afresh). */
  maxKeys?: number;
  /** Entries looked at per new key: sweeping costs a bounded amount on each request. */
  sweepBatch?: number;
}

interface Entry {
  state: PolicyState;
  /** The policy whose state it is: a limiter whose policy changed starts afresh (see RESERVE_SCRIPT). */
  policy: PolicySpec['policy'];
  expiresAt: number;
  /** No token left at its last request (refused, or the last one taken): dropping it would lift a block. */
  exhausted: boolean;
}

/**
 * Limiter state in this process's memory: the embedded default. The Map is kept in order of use (a key
 * written moves to the end), and each new key sweeps a few entries from the least recently used end:
 * expired ones go, live ones move to the end, so no run of live keys (a few steady clients, a limiter
 * with a long window) can hide the expired ones behind it. Memory stays bounded without a timer: each
 * new key looks at `sweepBatch` entries, so expired entries stay a small share of the Map. Past
 * `maxKeys`, the least recently used key goes (its client starts afresh), passing over up to `sweepBatch`
 * keys with no token left: new keys cost nothing to make (one address, a new account name each time on an
 * account-keyed route), and dropping the blocked ones first would let a client lift its own block.
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
    const current = entry !== undefined && entry.expiresAt >= now && entry.policy === spec.policy ? entry.state : undefined;
    const { decision, state, expiresAt } = this.#policy(spec).reserve(current, tokens, now, maxWait);
    const exhausted = !decision.accepted || decision.remaining === 0;
    if (state !== undefined && expiresAt !== undefined) {
      if (entry !== undefined) {
        this.#touch(id, entry);
        entry.state = state;
        entry.policy = spec.policy;
        entry.expiresAt = expiresAt;
        entry.exhausted = exhausted;
      } else {
        this.#entries.set(id, { state, policy: spec.policy, expiresAt, exhausted });
        this.#sweep(now);
      }
    } else if (current !== undefined && entry !== undefined) {
      // Refused without a change of state: still used, and still blocked.
      this.#touch(id, entry);
      entry.exhausted = exhausted;
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
    const entries = this.#entries;
    // Moved entries land behind the ones still to look at, so one pass never sees an entry twice.
    for (let looked = 0; looked < this.#sweepBatch && looked < entries.size; looked++) {
      const [id, entry] = entries.entries().next().value as [string, Entry];
      entries.delete(id);
      if (entry.expiresAt >= now) entries.set(id, entry);
    }
    // Over the bound with every entry looked at alive: the least recently used go, blocked ones passed over
    // (moved to the end) a few times at most, so that the work per request stays bounded.
    for (let passed = 0; entries.size > this.#maxKeys; ) {
      const [id, entry] = entries.entries().next().value as [string, Entry];
      entries.delete(id);
      if (entry.exhausted && passed++ < this.#sweepBatch) entries.set(id, entry);
    }
  }

  /** To the most recently used end. */
  #touch(id: string, entry: Entry): void {
    this.#entries.delete(id);
    this.#entries.set(id, entry);
  }
}
