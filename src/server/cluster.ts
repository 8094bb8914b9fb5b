import cluster, { type Worker } from 'node:cluster';
import { availableParallelism } from 'node:os';
import type { AppEnv, KeelConfig } from '../config/config.js';
import { ConfigError } from '../config/config-error.js';
import { LOG_MESSAGES } from '../logging/log-messages.js';
import type { Logger } from '../logging/logger.js';

/** Something started in each process that can be stopped gracefully (an App after listen()). */
export interface Closable {
  close(): Promise<void>;
}

export interface RunOptions {
  /** Processes serving requests; 1 serves from this process, more fork workers sharing the port. */
  workers: number;
  /** Starts the server in the current process (each worker, or this one). */
  start: () => Promise<Closable>;
  /** How long a stop may take before the process exits anyway, in ms. */
  gracePeriod?: number;
  logger?: Pick<Logger, 'info' | 'warning' | 'error'>;
}

const SIGNALS = ['SIGTERM', 'SIGINT'] as const;
// Workers that die before listening or soon after starting, this many in a row, are crash-looping (a
// configuration error, a port taken, a failing boot job): restarting them again would only spin.
const CRASH_LOOP = 5;
// A worker that dies within this many ms of its start counts toward CRASH_LOOP even if it listened.
const QUICK_DEATH_MS = 10_000;

/**
 * The worker count: `KEEL_WORKERS`, else `WEB_CONCURRENCY` (the Heroku convention), else one per core in
 * prod and a single process elsewhere (dev keeps one process, so that its in-memory profiler sees every
 * request). Given the configuration rather than its environment name, the default in prod is one process
 * too while the rate limits are counted in memory, which workers cannot share (keel refuses to start them):
 * one per core once they are shared through Redis. A configuration from loadConfig() also lends the values its
 * `.env` files gave (`KEEL_WORKERS=4` in `.env.prod.local`), below the environment given, as every other
 * setting is read: loadConfig() never writes them to process.env.
 * @example resolveWorkerCount({ KEEL_WORKERS: '4' }, 'prod') // 4
 * @example resolveWorkerCount({}, loadConfig()) // prod with RATE_LIMIT_STORAGE=redis://…: one per core
 */
export function resolveWorkerCount(env: Record<string, string | undefined>, config: AppEnv | Pick<KeelConfig, 'env' | 'rateLimiterStorage' | 'dotenvVars'>): number {
  const fromFiles = typeof config === 'string' ? undefined : config.dotenvVars;
  for (const name of ['KEEL_WORKERS', 'WEB_CONCURRENCY'] as const) {
    const value = (env[name] ?? fromFiles?.[name])?.trim();
    if (value === undefined || value === '') continue;
    if (value === 'auto') return availableParallelism();
    if (!/^\d+$/.test(value) || Number(value) < 1) throw new ConfigError(name, value, 'a positive integer or "auto"');
    return Number(value);
  }
  if (typeof config === 'string') return config === 'prod' ? availableParallelism() : 1;
  const memoryLimits = (config.rateLimiterStorage?.url ?? 'memory') === 'memory';
  return config.env === 'prod' && !memoryLimits ? availableParallelism() : 1;
}

/**
 * Runs the server until SIGTERM or SIGINT, then stops gracefully: no new connections, in-flight requests
 * finished, logs and profiles flushed, exit 0 (1 if the stop failed or outlived the grace period).
 * With several workers, this process becomes the cluster's primary: it forks them, restarts any that
 * dies, and on a signal stops them all the same way before exiting.
 * @example await runServer({ workers: resolveWorkerCount(process.env, config), start: async () => { const app = createApp(…); await app.listen(); return app; } });
 */
export async function runServer({ workers, start, gracePeriod = 10_000, logger }: RunOptions): Promise<void> {
  if (workers > 1 && cluster.isPrimary) {
    runPrimary(workers, gracePeriod, logger);
    return;
  }
  const running = await start();
  stopOnSignal(() => running.close(), gracePeriod, logger);
}

function stopOnSignal(stop: () => Promise<void>, gracePeriod: number, logger: RunOptions['logger']): void {
  let stopping = false;
  const stopAndExit = (failed: boolean): void => {
    if (stopping) return;
    stopping = true;
    // The server's own grace period destroys lingering sockets; this one is the last resort.
    setTimeout(() => process.exit(1), gracePeriod + 5_000).unref();
    stop().then(
      () => process.exit(failed ? 1 : 0),
      () => process.exit(1),
    );
  };
  for (const signal of SIGNALS) process.on(signal, () => stopAndExit(false));
  // What the application threw or rejected outside any request (fire-and-forget work): node's default is to
  // end the process there and then, cutting every request in flight, with a stack on stderr and no line in
  // the log. It is logged, and the server stops as on a signal, its requests finished, then exits 1.
  for (const event of ['uncaughtException', 'unhandledRejection'] as const) {
    process.on(event, (error: unknown) => {
      logger?.error(event === 'uncaughtException' ? LOG_MESSAGES.uncaughtOutsideRequest : LOG_MESSAGES.unhandledRejectionOutsideRequest, { exception: error });
      stopAndExit(true);
    });
  }
}

function runPrimary(count: number, gracePeriod: number, logger: RunOptions['logger']): void {
  let stopping = false;
  // A worker whose own stop failed or outlived its grace period (it exits 1, see stopOnSignal): the
  // cluster's stop failed too, and says so by its exit code as a single process does.
  let stopFailed = false;
  let quickDeaths = 0;
  // Each live worker: when it was started, and whether it has listened yet.
  const live = new Map<Worker, { startedAt: number; listened: boolean }>();
  const fork = (): void => void live.set(cluster.fork(), { startedAt: Date.now(), listened: false });

  cluster.on('listening', (worker) => {
    const state = live.get(worker);
    if (state !== undefined) state.listened = true;
  });
  cluster.on('exit', (worker, code, signal) => {
    const { startedAt, listened } = live.get(worker) ?? { startedAt: Date.now(), listened: false };
    live.delete(worker);
    if (stopping) {
      // Killed by the stop's signal itself: a worker still starting, before stopOnSignal took the signals
      // over, by the SIGTERM sent to it, or by the SIGINT a terminal's Ctrl-C sends the whole process group.
      if (signal === null ? code !== 0 : signal !== 'SIGTERM' && signal !== 'SIGINT') stopFailed = true;
      if (live.size === 0) process.exit(stopFailed ? 1 : 0);
      return;
    }
    // One that never listened, or died within seconds of its start (a boot job failing), is a crash loop's.
    quickDeaths = !listened || Date.now() - startedAt < QUICK_DEATH_MS ? quickDeaths + 1 : 0;
    if (quickDeaths >= CRASH_LOOP) {
      logger?.error('workers keep dying soon after they start, giving up', { worker: worker.process.pid, code, signal, deaths: quickDeaths });
      // The workers still serving are stopped as on a signal, their requests finished: exiting at once
      // would have cut them (a worker ends with its primary). The cluster's stop has failed: exit 1.
      stopFailed = true;
      stopAll('crash loop');
      return;
    }
    logger?.warning('worker died, starting another', { worker: worker.process.pid, code, signal });
    fork();
  });

  function stopAll(reason: string): void {
    if (stopping) return;
    stopping = true;
    logger?.info('stopping workers', { signal: reason, workers: live.size });
    setTimeout(() => process.exit(1), gracePeriod + 5_000).unref();
    // Each worker stops itself gracefully on SIGTERM (see stopOnSignal).
    for (const worker of live.keys()) worker.process.kill('SIGTERM');
    if (live.size === 0) process.exit(stopFailed ? 1 : 0);
  }
  for (const signal of SIGNALS) process.on(signal, () => stopAll(signal));

  logger?.info('starting workers', { workers: count });
  for (let i = 0; i < count; i++) fork();
}
