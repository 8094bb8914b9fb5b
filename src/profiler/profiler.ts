import { maskTextSecrets } from '../config/mask-secrets.js';
import { HttpException } from '../http/http-exception.js';
import type { Request } from '../http/request.js';
import type { Response } from '../http/response.js';
import { LOG_MESSAGES } from '../logging/log-messages.js';
import type { Logger } from '../logging/logger.js';
import type { Collector } from './collectors/collector.js';
import { PartialSearchError } from './composite-profile-store.js';
import type { Profile, ProfileSummary } from './profile.js';
import type { ProfileQuery, ProfileStore } from './profile-store.js';
import { generateRandomToken, isProfileToken, LATEST_TOKEN, type TokenGenerator } from './token.js';
import { setOwn } from '../internal/set-own.js';

declare module '../http/request.js' {
  interface RequestAttributes {
    /** Set by the profiler's own pages (and by anyone who wants a request left out): no profile, no debug headers. */
    profilerDisabled?: boolean;
  }
}

/**
 * A store the profiler can stage records in synchronously, so a record is readable as soon as the
 * response naming it exists: MemoryProfileStore, or CompositeProfileStore in front of a durable store.
 */
export interface StagingProfileStore extends ProfileStore {
  add(profile: Profile): void;
  get(token: string): Profile | undefined;
  /** Drops a staged record that will never be written (see Profiler.discard). */
  forget(profile: Profile): void;
}

/** A search's results; `unavailable` the durable store's error when only the records in memory could be searched. */
export interface ProfileSearch {
  results: ProfileSummary[];
  unavailable?: string;
}

export interface ProfilerOptions {
  store: StagingProfileStore;
  collectors: Collector[];
  generateToken?: TokenGenerator;
  /** ms since the epoch. */
  clock?: () => number;
  /** Where durable-store trouble is reported. */
  logger?: Logger;
}

// Families whose durable write may be under way at once; ~2 records each.
const MAX_PENDING_WRITES = 256;
// ms without a failed write before a write that succeeds ends an outage, as the rate limiter's storage
// waits (GuardedStorage's settle): a Redis that flaps, a write failing, the next one passing, would
// otherwise log an outage and its end, two lines, at each flap.
const RECOVERY_SETTLE_MS = 1_000;

/**
 * Records what happened during a request (Symfony's Profiler): a token per profiled response, announced
 * in `X-Debug-Token`, and one data set per collector.
 * @example
 * const profiler = new Profiler({ store: new MemoryProfileStore(), collectors: [new RequestCollector()] });
 * const profile = profiler.collect(request, response); // response now carries X-Debug-Token: profile.token
 */
export class Profiler {
  readonly store: StagingProfileStore;
  readonly collectors: readonly Collector[];
  #generateToken: TokenGenerator;
  #clock: () => number;
  #logger: Logger | undefined;
  // Families whose durable write is under way, and who waits for them all to be done (flush). A count,
  // not a Set of their promises: see MemoryProfileStore on what a Map or Set churned per request costs.
  #writing = 0;
  #flushed: (() => void)[] = [];
  #behind = false;
  #failing = false;
  #lastFailure = 0;

  constructor({ store, collectors, generateToken = generateRandomToken, clock = Date.now, logger }: ProfilerOptions) {
    this.store = store;
    this.collectors = collectors;
    this.#generateToken = generateToken;
    this.#clock = clock;
    this.#logger = logger;
  }

  /** False for a request marked disabled, or any sub-request of one (its error page included). */
  isEnabled(request: Request): boolean {
    for (let current: Request | undefined = request; current !== undefined; current = current.parent) {
      if (current.attributes.profilerDisabled === true) return false;
    }
    return true;
  }

  disable(request: Request): void {
    request.attributes.profilerDisabled = true;
  }

  enable(request: Request): void {
    request.attributes.profilerDisabled = false;
  }

  /**
   * Profiles a response, in Symfony's order: a token already on the response (the error sub-request's)
   * moves to `X-Previous-Debug-Token`, the new token takes `X-Debug-Token`'s place, then every collector
   * runs. The record is staged in the store before this returns.
   */
  collect(request: Request, response: Response, error?: unknown): Profile {
    const token = this.#uniqueToken();
    const previous = response.headers.get('x-debug-token');
    if (previous !== undefined) response.headers.set('X-Previous-Debug-Token', previous);
    response.headers.set('X-Debug-Token', token);
    const profile: Profile = {
      token,
      parent: undefined,
      children: [],
      time: Math.floor(this.#clock() / 1000),
      method: request.method,
      url: maskTextSecrets(safeUri(request)),
      ip: safeClientIp(request),
      statusCode: response.status,
      type: 'request',
      collectors: {},
    };
    for (const collector of this.collectors) {
      try {
        setOwn(profile.collectors, collector.name, collector.collect(request, response, error));
      } catch (failure) {
        // A broken collector costs its panel, never the request.
        setOwn(profile.collectors, collector.name, { collectorError: String(failure) });
      }
    }
    this.store.add(profile);
    return profile;
  }

  /** Drops a record collected but replaced before it was persisted: it stays out of the store and its searches. */
  discard(profile: Profile): void {
    this.store.forget(profile);
  }

  /** Runs the collectors' lateCollect, once the response has been sent; `error` is the one collect() was given. */
  lateCollect(profile: Profile, request: Request, response: Response, error?: unknown): void {
    for (const collector of this.collectors) {
      if (collector.lateCollect === undefined || !Object.hasOwn(profile.collectors, collector.name)) continue;
      try {
        setOwn(profile.collectors, collector.name, collector.lateCollect(profile.collectors[collector.name], request, response, error));
      } catch (failure) {
        setOwn(profile.collectors, collector.name, { collectorError: String(failure) });
      }
    }
  }

  /**
   * Writes records to the durable store in the background, children before parents. While the store
   * falls behind (a slow disk under load) by more than MAX_PENDING_WRITES families, newer records stay in
   * the in-memory store only, said once per episode (until it has caught up by half); a failing store is
   * logged once per outage, which ends at the first write that succeeds RECOVERY_SETTLE_MS after its last failure.
   */
  persist(profiles: Profile[]): void {
    if (this.#writing >= MAX_PENDING_WRITES) {
      // Not while its writes fail (said once already): an unreachable Redis fails a queue of writes at
      // once, catching up in a moment, and each refill would start a new episode, a line a second.
      if (!this.#behind && !this.#failing) this.#logger?.warning(LOG_MESSAGES.profileStoreBehind, { pending: this.#writing, token: profiles.at(-1)?.token });
      this.#behind = true;
      return;
    }
    // The episode ends once the store has caught up by half: a store hovering at the bound (one write
    // done, one more record over) would otherwise start a new episode, and a new line, with every record.
    if (this.#writing <= MAX_PENDING_WRITES / 2) this.#behind = false;
    this.#writing++;
    void this.#write(profiles).finally(this.#written);
  }

  /** Resolves once every record handed to persist() has been written (or has failed). */
  async flush(): Promise<void> {
    // Again after each wake-up: a write handed over meanwhile is waited for too.
    while (this.#writing > 0) await new Promise<void>((resolve) => this.#flushed.push(resolve));
  }

  readonly #written = (): void => {
    if (--this.#writing > 0) return;
    const waiting = this.#flushed;
    this.#flushed = [];
    for (const resolve of waiting) resolve();
  };

  // Handed over together, in order (stores write in the order given), so a batching store puts a family
  // in one batch.
  async #write(profiles: Profile[]): Promise<void> {
    const outcomes = await Promise.allSettled(profiles.map((profile) => this.store.write(profile)));
    outcomes.forEach((outcome, i) => {
      if (outcome.status === 'fulfilled') {
        // The end of an outage is said too, as the rate limiter's is: its records survive restarts again.
        if (this.#failing && this.#clock() - this.#lastFailure >= RECOVERY_SETTLE_MS) {
          this.#failing = false;
          this.#logger?.info(LOG_MESSAGES.profileStoreRecovered, { token: profiles[i]!.token });
        }
        return;
      }
      this.#lastFailure = this.#clock();
      // One line per outage, not one per record: a full disk would otherwise flood the log.
      if (!this.#failing) this.#logger?.error(LOG_MESSAGES.profileStoreWriteFailed, { token: profiles[i]!.token, exception: outcome.reason });
      this.#failing = true;
    });
  }

  /**
   * The record for a token, or for `latest` the newest record of `type` (6.4+; keel records requests only,
   * so another type has none). Anything that is not a well-formed token answers undefined without
   * touching the store.
   */
  async loadProfile(token: string, type = 'request'): Promise<Profile | undefined> {
    if (token === LATEST_TOKEN) {
      if (type !== 'request') return undefined;
      const [newest] = await this.findProfiles({ type: 'request', limit: 1 });
      return newest === undefined ? undefined : readable(this.store.read(newest.token));
    }
    return isProfileToken(token) ? readable(this.store.read(token)) : undefined;
  }

  /** The store's search, for the profiler's pages: a store that fails is their 503, not a 500 (see searchProfiles). */
  async findProfiles(query: ProfileQuery): Promise<ProfileSummary[]> {
    return (await this.searchProfiles(query)).results;
  }

  /**
   * The store's search, and whether it is whole. While a durable store is down, the records this process
   * could not write are still in memory, the newest of the outage: they are the results, `unavailable`
   * saying why the others are missing. With none of them, the storage's failure is a 503.
   */
  async searchProfiles(query: ProfileQuery): Promise<ProfileSearch> {
    try {
      return { results: await this.store.find(query) };
    } catch (error) {
      if (error instanceof PartialSearchError && error.results.length > 0) return { results: error.results, unavailable: firstLine(error) };
      throw storageUnavailable(error);
    }
  }

  #uniqueToken(): string {
    for (let attempt = 0; attempt < 32; attempt++) {
      const token = this.#generateToken();
      if (isProfileToken(token) && this.store.get(token) === undefined) return token;
    }
    throw new Error('The token generator keeps producing invalid or already used profile tokens.');
  }
}

function readable<T>(reading: Promise<T>): Promise<T> {
  return reading.catch((error: unknown) => {
    throw storageUnavailable(error);
  });
}

// A storage failure as the pages answer it: 503, naming the storage's own error (Redis: one line).
function storageUnavailable(error: unknown): HttpException {
  return new HttpException(503, { message: `The profile storage is unavailable: ${firstLine(error)}`, code: 'KEEL_ERR_PROFILER_STORAGE_UNAVAILABLE', cause: error });
}

function firstLine(error: unknown): string {
  return (error instanceof Error ? error.message : String(error)).split('\n')[0]!;
}

function safeUri(request: Request): string {
  try {
    return request.uri;
  } catch {
    return request.pathInfo + (request.queryString === '' ? '' : `?${request.queryString}`);
  }
}

// Symfony records `Unknown` when forwarded headers conflict (ConflictingHeadersException).
function safeClientIp(request: Request): string {
  try {
    return request.clientIp;
  } catch {
    return 'Unknown';
  }
}
