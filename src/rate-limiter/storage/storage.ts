import type { Decision, PolicySpec } from '../policies/policy.js';

/**
 * Where limiter state lives. A storage performs a whole reservation as one atomic operation (memory: one
 * synchronous update; Redis: one server-side script), so no caller ever needs a lock.
 */
export interface Storage {
  /**
   * Applies the policy of `spec` to the state of `id` at `now` (seconds since the epoch) and keeps the
   * new state. `maxWait` in seconds; negative means "now or never".
   */
  reserve(id: string, spec: PolicySpec, tokens: number, now: number, maxWait: number): Promise<Decision>;
  /**
   * Gives back the tokens of a reservation made by `reserve` whose caller did not wait for the answer (a
   * deadline passed), if its window is still the current one. Only remote storages need it.
   */
  refund?(id: string, spec: PolicySpec, tokens: number, decision: Decision): Promise<void>;
  /** The last error the storage's connection reported, if it has not connected since (for the outage's log line). */
  lastError?(): Error | undefined;
  /** Forgets the state of `id`: its next hit starts afresh. */
  reset(id: string): Promise<void>;
  close(): Promise<void>;
}
