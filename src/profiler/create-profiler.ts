import { join } from 'node:path';
import type { KeelConfig } from '../config/config.js';
import type { EventDispatcher, Subscriber } from '../kernel/event-dispatcher.js';
import type { Logger } from '../logging/logger.js';
import type { Collector } from './collectors/collector.js';
import { ConfigCollector } from './collectors/config-collector.js';
import { EventsCollector } from './collectors/events-collector.js';
import { ExceptionCollector } from './collectors/exception-collector.js';
import { LoggerCollector } from './collectors/logger-collector.js';
import { MemoryCollector } from './collectors/memory-collector.js';
import { RateLimiterCollector } from './collectors/rate-limiter-collector.js';
import { RequestCollector } from './collectors/request-collector.js';
import { ResponseCollector } from './collectors/response-collector.js';
import { RouterCollector } from './collectors/router-collector.js';
import { TimeCollector } from './collectors/time-collector.js';
import { CompositeProfileStore } from './composite-profile-store.js';
import { FileProfileStore } from './file-profile-store.js';
import { LazyProfileStore } from './lazy-profile-store.js';
import { MemoryProfileStore } from './memory-profile-store.js';
import { ProfilerListener } from './profiler-listener.js';
import { Profiler, type StagingProfileStore } from './profiler.js';
import { RedirectCookieListener } from './redirect-cookie-listener.js';
import type { TokenGenerator } from './token.js';
import { ToolbarListener } from './toolbar-listener.js';

export interface CreateProfilerOptions {
  store?: StagingProfileStore;
  collectors?: Collector[];
  generateToken?: TokenGenerator;
  /** ms since the epoch. */
  clock?: () => number;
  /** Where durable-store trouble is reported. */
  logger?: Logger;
}

/**
 * @example
 * const profiler = createProfiler({ store: createProfileStore(config), collectors: createDefaultCollectors({ config, dispatcher: kernel.dispatcher }), logger });
 * for (const subscriber of profilerSubscribers(profiler, { toolbar: config.profiler.toolbar })) kernel.dispatcher.addSubscriber(subscriber);
 */
export function createProfiler({ store = new MemoryProfileStore(), collectors = [], generateToken, clock, logger }: CreateProfilerOptions = {}): Profiler {
  return new Profiler({ store, collectors, generateToken, clock, logger });
}

/**
 * `memory`: the ring buffer alone; `file`: the ring buffer in front of `<varDir>/profiler`; a
 * `redis://` or `rediss://` URL: the ring buffer in front of Redis, whose module (and client library) is
 * imported only then. The ring buffer is what makes a record readable the moment its response is sent.
 */
export function createProfileStore(config: KeelConfig, { clock }: { clock?: () => number } = {}): StagingProfileStore {
  const { maxRecords, maxAge } = config.profiler;
  const storage: string = config.profiler.storage;
  const memory = new MemoryProfileStore({ limit: Math.min(maxRecords, 500), maxAge, clock });
  if (storage === 'memory') return memory;
  if (/^rediss?:\/\//.test(storage)) {
    const load = async () => new (await import('./redis-profile-store.js')).RedisProfileStore({ url: storage, maxRecords, maxAge, clock });
    return new CompositeProfileStore(memory, new LazyProfileStore(load), { maxRecords });
  }
  return new CompositeProfileStore(memory, new FileProfileStore({ dir: join(config.varDir, 'profiler'), maxRecords, maxAge, clock }), { maxRecords });
}

/**
 * The standard collectors in Symfony's menu order (request, time, memory, exception, logger, events, router,
 * config), the response panel after the request. Installs the time collector's tracer on the dispatcher,
 * which the events panel also reads (no dispatcher, no events panel).
 */
export function createDefaultCollectors({ config, dispatcher }: { config: KeelConfig; dispatcher?: EventDispatcher }): Collector[] {
  const time = new TimeCollector();
  if (dispatcher !== undefined) dispatcher.tracer = time.tracer;
  return [
    new RequestCollector(),
    new ResponseCollector(),
    time,
    new MemoryCollector(),
    new ExceptionCollector(),
    new LoggerCollector(),
    ...(dispatcher === undefined ? [] : [new EventsCollector(dispatcher)]),
    new RouterCollector(),
    new RateLimiterCollector(),
    new ConfigCollector(config),
  ];
}

/**
 * The listeners to add to the kernel's dispatcher: the profiler (exception 0, response -100, terminate
 * -1024), the redirect cookie (response -1024) and, when the toolbar is on, the toolbar (response -128),
 * which is also what sets X-Debug-Token-Link, as in the reference.
 */
export function profilerSubscribers(profiler: Profiler, { toolbar = true, clock }: { toolbar?: boolean; clock?: () => number } = {}): Subscriber[] {
  const subscribers: Subscriber[] = [new ProfilerListener({ profiler })];
  if (toolbar) subscribers.push(new ToolbarListener({ profiler }));
  subscribers.push(new RedirectCookieListener({ clock }));
  return subscribers;
}
