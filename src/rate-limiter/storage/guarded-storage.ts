import { withConnectionCause } from '../../internal/connection-error.js';
import { systemClock, type Clock } from '../clock.js';
import type { Decision, PolicySpec } from '../policies/policy.js';
import type { Storage } from './storage.js';

/** The storage failed or did not answer in time; `cause` holds what happened. */
export class StorageUnavailableError extends Error {
  readonly code = 'KEEL_ERR_RATE_LIMIT_STORAGE_UNAVAILABLE';

  constructor(cause: unknown) {
    super('The rate limiter storage is unavailable.', { cause });
    this.name = 'StorageUnavailableError';
  }
}

export interface GuardedStorageOptions {
  /** Milliseconds a reservation may take before it counts as failed. */
  timeout?: number;
  /**
   * Called when an outage begins (the first failure after a success or at start), and once more if the
   * connection names its cause only after that.
   */
  onOutage?: (error: unknown) => void;
  /** Called once when a reservation succeeds `settle` ms or more after the outage's last failure. */
  onRecovery?: () => void;
  /**
   * Milliseconds without a failure before a success ends an outage. A Redis that answers slowly now and
   * then (each answer past the deadline, the next in time) would otherwise begin and end an outage, two
   * log lines, every second or so for as long as it is slow.
   */
  settle?: number;
  clock?: Clock;
  /**
   * Reservations given up at the deadline whose reply is still awaited (to refund it), at most. Past it,
   * requests fail at once without a command: a storage that stalls (connected, not answering) would
   * otherwise hold one pending command a request, ~5 kB each, for as long as replies are awaited.
   */
  maxAbandoned?: number;
}

/**
 * Puts a deadline on a remote storage and reports outages once each: every failure becomes a
 * StorageUnavailableError (the limiter's fail mode decides what it means), and no request waits longer
 * than `timeout`, whatever the network does. The inner client reconnects by itself.
 */
export class GuardedStorage implements Storage {
  readonly #inner: Storage;
  readonly #timeout: number;
  readonly #onOutage: (error: unknown) => void;
  readonly #onRecovery: () => void;
  readonly #maxAbandoned: number;
  readonly #settle: number;
  readonly #clock: Clock;
  #abandoned = 0;
  #down = false;
  #lastFailure = 0;
  // Whether this outage's report named what the connection said.
  #causeTold = false;

  constructor(inner: Storage, { timeout = 200, onOutage = () => {}, onRecovery = () => {}, maxAbandoned = 1000, settle = 1_000, clock = systemClock }: GuardedStorageOptions = {}) {
    this.#inner = inner;
    this.#timeout = timeout;
    this.#onOutage = onOutage;
    this.#onRecovery = onRecovery;
    this.#maxAbandoned = maxAbandoned;
    this.#settle = settle;
    this.#clock = clock;
  }

  get isDown(): boolean {
    return this.#down;
  }

  async reserve(id: string, spec: PolicySpec, tokens: number, now: number, maxWait: number): Promise<Decision> {
    if (this.#abandoned >= this.#maxAbandoned) throw this.#failed(new Error(`${this.#abandoned} reservations still unanswered`));
    const reservation = this.#inner.reserve(id, spec, tokens, now, maxWait);
    return this.#guard(reservation, () => {
      // Abandoned, not failed: the storage may still make the reservation. Its tokens are given back then,
      // since the request was decided without it (admitted, or refused with a 503).
      this.#abandoned++;
      void reservation
        .then((decision) => (decision.reserved ? this.#inner.refund?.(id, spec, tokens, decision) : undefined))
        .catch(() => {})
        .finally(() => this.#abandoned--);
    });
  }

  /**
   * Under the same deadline as a reservation: a controller resetting a limit (a login that succeeded) would
   * otherwise wait for as long as the client awaits a late reply (30 s for keel's Redis storage).
   */
  reset(id: string): Promise<void> {
    return this.#guard(this.#inner.reset(id), () => {});
  }

  /** The operation's result within the timeout, else StorageUnavailableError; `onLate` when abandoned at the deadline. */
  async #guard<T>(operation: Promise<T>, onLate: () => void): Promise<T> {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const late = new Error(`no answer within ${this.#timeout} ms`);
    const deadline = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(late), this.#timeout);
    });
    try {
      const result = await Promise.race([operation, deadline]);
      const now = this.#clock();
      // A clock stepped back (NTP, a VM resumed) puts the last failure ahead of now: counted from now, or
      // the outage went on as long as the step, its recovery and any new outage in that time unreported.
      if (now < this.#lastFailure) this.#lastFailure = now;
      if (this.#down && now - this.#lastFailure >= this.#settle) {
        this.#down = false;
        this.#onRecovery();
      }
      return result;
    } catch (error) {
      if (error === late) {
        onLate();
        // An abandoned operation that fails later must not surface as an unhandled rejection.
        operation.catch(() => {});
      }
      throw this.#failed(error);
    } finally {
      clearTimeout(timer);
    }
  }

  /**
   * The error a failed reservation throws; the first of an outage is reported, with what the connection
   * last said. The connection may name the cause only later: a password set on a running Redis shows as
   * a dropped connection, then as NOAUTH once the client reconnects. That cause is reported once more,
   * the first time it is known, or the outage's only line would never say why.
   */
  #failed(error: unknown): StorageUnavailableError {
    this.#lastFailure = this.#clock();
    const said = this.#inner.lastError?.();
    if (!this.#down || (!this.#causeTold && said !== undefined)) {
      this.#down = true;
      this.#causeTold = said !== undefined;
      this.#onOutage(withConnectionCause(error, said));
    }
    return new StorageUnavailableError(error);
  }

  lastError(): Error | undefined {
    return this.#inner.lastError?.();
  }

  close(): Promise<void> {
    return this.#inner.close();
  }
}
