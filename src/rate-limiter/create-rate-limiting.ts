import { LOG_MESSAGES } from '../logging/log-messages.js';
import cluster from 'node:cluster';
import type { KeelConfig } from '../config/config.js';
import { maskTextSecrets } from '../config/mask-secrets.js';
import type { Request } from '../http/request.js';
import type { Logger } from '../logging/logger.js';
import type { Clock } from './clock.js';
import { RateLimitListener, type RateLimitListenerOptions } from './rate-limit-listener.js';
import { RateLimiter } from './rate-limiter.js';
import { RateLimiterConfigError } from './rate-limiter-config-error.js';
import { GuardedStorage } from './storage/guarded-storage.js';
import { LazyStorage } from './storage/lazy-storage.js';
import { MemoryStorage } from './storage/memory-storage.js';
import type { Storage } from './storage/storage.js';
import type { RouteOptions } from '../routing/route.js';

export interface RateLimiting {
  readonly limiters: ReadonlyMap<string, RateLimiter>;
  readonly storage: Storage;
  readonly listener: RateLimitListener;
  /** Forgets what the request's route limiters counted for it: after a successful login (see RateLimitListener.reset). */
  reset(request: Request): Promise<void>;
  /** Closes the storage's connection. */
  close(): Promise<void>;
}

export interface CreateRateLimitingOptions {
  config: Pick<KeelConfig, 'rateLimiter' | 'rateLimiterStorage'>;
  routes: RateLimitListenerOptions['routes'];
  logger: Logger;
  clock?: Clock;
  /** Whether this process is a node:cluster worker (injected by tests). */
  isClusterWorker?: boolean;
  /** A storage of the caller's own, instead of the configured one. */
  storage?: Storage;
}

/**
 * Builds the configured limiters, their storage and the listener that applies them. The Redis storage
 * module (and its client) is loaded only when `RATE_LIMIT_STORAGE` is a redis:// URL. Fails at start-up
 * (KEEL_ERR_CONFIG_RATE_LIMITER) when node:cluster workers would each count in their own memory,
 * which would admit the limit once per worker.
 * @example const rateLimiting = createRateLimiting({ config, routes: collection, logger }); dispatcher.addSubscriber(rateLimiting.listener);
 */
export function createRateLimiting({ config, routes, logger, clock, isClusterWorker = cluster.isWorker, storage }: CreateRateLimitingOptions): RateLimiting {
  const { url, timeout } = config.rateLimiterStorage ?? { url: 'memory', timeout: 200 };
  const inWorker = !isClusterWorker ? 'no' : limitsSomething(config, routes) ? 'limiting' : 'unused';
  const store = storage ?? createStorage(url, timeout, logger.channel('rate_limiter'), inWorker);
  const limiters = new Map<string, RateLimiter>();
  for (const [name, settings] of Object.entries(config.rateLimiter)) {
    const failMode = settings.failMode ?? (name === 'default' ? 'open' : 'closed');
    limiters.set(name, new RateLimiter({ name, config: settings, storage: store, clock, failMode }));
  }
  const paths = Object.entries(config.rateLimiter).flatMap(([name, settings]) => (settings.paths ?? []).map((prefix) => [prefix, name] as const));
  let listener: RateLimitListener;
  try {
    listener = new RateLimitListener({ limiters, routes, paths });
  } catch (error) {
    // A route naming an unknown limiter: the storage opened here must not keep the process alive.
    if (storage === undefined) void store.close().catch(() => undefined);
    throw error;
  }
  return { limiters, storage: store, listener, reset: (request) => listener.reset(request), close: () => store.close() };
}

/**
 * Whether a route or a path prefix is limited: an application without rate limiting may run in cluster
 * workers on the memory storage, which then never counts anything. (A limiter the application consumes
 * itself is not seen here: in a worker, the memory storage refuses its first use instead.)
 */
function limitsSomething(config: Pick<KeelConfig, 'rateLimiter'>, routes: Iterable<{ options: Readonly<RouteOptions> }>): boolean {
  // Own names only: a route naming `constructor` names no limiter, which the listener then says.
  const limiting = (name: string) => Object.hasOwn(config.rateLimiter, name) && config.rateLimiter[name]!.policy !== 'no_limit';
  if (Object.keys(config.rateLimiter).some((name) => limiting(name) && (config.rateLimiter[name]!.paths?.length ?? 0) > 0)) return true;
  for (const route of routes) {
    const { limiters } = route.options as { limiters?: unknown };
    if (Array.isArray(limiters) && limiters.some((name) => typeof name === 'string' && limiting(name))) return true;
  }
  return false;
}

// How long a reservation abandoned at the deadline is still awaited, to give back what it took.
const LATE_REPLY_MS = 30_000;

const MEMORY_IN_WORKERS =
  'Rate limiting with RATE_LIMIT_STORAGE=memory cannot run in node:cluster workers: each worker would count alone and admit the limit once per worker. Set RATE_LIMIT_STORAGE=redis://host:port to share the count.';

// `inWorker`: not in a cluster worker, in one whose routes are limited (refused at start), or in one whose
// routes are not (the storage refuses only a limiter the application consumes itself).
function createStorage(url: string, timeout: number, logger: Logger, inWorker: 'no' | 'limiting' | 'unused'): Storage {
  if (url === 'memory') {
    if (inWorker === 'limiting') throw new RateLimiterConfigError(MEMORY_IN_WORKERS);
    return inWorker === 'unused' ? REFUSING_STORAGE : new MemoryStorage();
  }
  const storage = new LazyStorage(async () => {
    const { RedisStorage } = await import('./storage/redis-storage.js');
    return new RedisStorage({ url, commandTimeout: timeout, replyTimeout: LATE_REPLY_MS });
  });
  const where = maskTextSecrets(url);
  return new GuardedStorage(storage, {
    timeout,
    onOutage: (error) => logger.error(LOG_MESSAGES.rateLimitStorageUnavailable, { storage: where, error: error instanceof Error ? error.message : String(error) }),
    onRecovery: () => logger.info(LOG_MESSAGES.rateLimitStorageRecovered, { storage: where }),
  });
}

// The memory storage of a cluster worker whose routes use no limiter: a count in it would be this worker's alone.
const REFUSING_STORAGE: Storage = {
  reserve: () => Promise.reject(new RateLimiterConfigError(MEMORY_IN_WORKERS)),
  reset: () => Promise.reject(new RateLimiterConfigError(MEMORY_IN_WORKERS)),
  close: () => Promise.resolve(),
};
