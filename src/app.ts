import type { KeelConfig } from './config/config.js';
import { loadConfig } from './config/load-config.js';
import { createErrorController, createPreviewErrorRoute } from './errors/error-controller.js';
import { ErrorListener } from './errors/error-listener.js';
import { ErrorRenderer } from './errors/renderers/error-renderer.js';
import { DisallowRobotsIndexingListener } from './http/disallow-robots-indexing-listener.js';
import type { Request } from './http/request.js';
import type { Response } from './http/response.js';
import { ResponseListener } from './http/response-listener.js';
import { StreamStartListener } from './http/stream-start-listener.js';
import { JsonViewListener } from './http/json-view-listener.js';
import { installSourceMappedStackCache } from './internal/source-mapped-stacks.js';
import type { Subscriber } from './kernel/event-dispatcher.js';
import { AttributeControllerResolver } from './kernel/controller-resolver.js';
import { Kernel } from './kernel/kernel.js';
import { createLogger, type ClosableLogger } from './logging/create-logger.js';
import { LOG_MESSAGES } from './logging/log-messages.js';
import { createDefaultCollectors, createProfiler, createProfileStore, profilerSubscribers } from './profiler/create-profiler.js';
import type { Profiler } from './profiler/profiler.js';
import { listenerSources } from './profiler/listener-sources.js';
import { createProfilerRoutes } from './profiler/ui/profiler-routes.js';
import { createRateLimiting, type RateLimiting } from './rate-limiter/create-rate-limiting.js';
import { OriginGuardListener } from './proxy/origin-guard-listener.js';
import { createOriginResolver } from './proxy/trusted-proxies.js';
import type { RouteDefinition } from './routing/route.js';
import { RouteCollection } from './routing/route-collection.js';
import { RouterListener } from './routing/router-listener.js';
import { createRequestListener, type RequestListener } from './server/node-adapter.js';
import { serve, type RunningServer, type ServeOptions } from './server/serve.js';

export interface AppOptions {
  /** Effective configuration; read from the environment and `.env` files when absent. */
  config?: KeelConfig;
  routes: RouteDefinition[];
  /** Extra kernel listeners of the application. */
  subscribers?: Subscriber[];
  logger?: ClosableLogger;
}

export interface App {
  readonly config: KeelConfig;
  readonly kernel: Kernel;
  readonly logger: ClosableLogger;
  readonly routes: RouteCollection;
  /** Present only in debug mode with the profiler enabled. */
  readonly profiler: Profiler | undefined;
  /** The configured limiters and the listener applying them. */
  readonly rateLimiting: RateLimiting;
  /**
   * The node:http request listener. It reads the headers from `req.rawHeaders`, the lines as node received
   * them (as @hono/node-server does): a server that wraps it and rewrites headers first must rewrite those.
   */
  readonly handler: RequestListener;
  /**
   * Handles a request in-process, without a socket (tests, sub-systems), terminate listeners included. The
   * request's origin is what its own resolver says: by default the direct one, which reads the Host header
   * as a server does (one that is no host is the 400 `Invalid Host`). The trusted-proxy and trusted-host
   * settings apply to requests the server builds; a test of them gives its request the app's resolver:
   * `new Request({ method: 'GET', target: '/', headers, resolveOrigin: createOriginResolver(app.config) })`.
   */
  handle(request: Request): Promise<Response>;
  /** Serves on the configured `PORT` and `HOST` with its server limits; an option given here wins unless it is undefined. */
  listen(options?: ServeOptions): Promise<RunningServer>;
  /** Stops the servers listen() started (one still starting too), then flushes logs and pending profile writes. */
  close(): Promise<void>;
}

/**
 * Builds an application: the kernel and the listeners the configuration asks for, in Symfony's
 * priorities (origin guard 256, router 32, rate limits 16, response 0, profiler −100, toolbar and error CSP −128,
 * robots −255), and the debug-only routes (profiler, error preview) ahead of the app's own.
 * @example
 * const app = createApp({ routes: [{ name: 'home', path: '/', methods: ['GET'], controller: () => Response.html('hi') }] });
 * await app.listen();
 */
export function createApp({ config = loadConfig(), routes, subscribers = [], logger }: AppOptions): App {
  const log =
    logger ??
    createLogger({
      env: config.env,
      debug: config.debug,
      level: config.log.level,
      file: config.log.file,
    });
  // Controllers get the application as their third argument, once it is built below.
  const resolver = new AttributeControllerResolver();
  const kernel = new Kernel({ resolver });
  // Debug pages and log lines read every error's stack: keep the source-mapped frames instead of mapping
  // them again for each error (see installSourceMappedStackCache).
  if (config.debug) installSourceMappedStackCache();
  // The profiler exists only in debug mode, whatever the profiler settings say.
  const profiler =
    config.debug && config.profiler.enabled
      ? createProfiler({ store: createProfileStore(config), collectors: createDefaultCollectors({ config, dispatcher: kernel.dispatcher }), logger: log })
      : undefined;
  // The debug page's frames link to the editor when one is set, else to the profiler's source view if mounted.
  const renderer = new ErrorRenderer({ debug: config.debug, projectDir: profiler === undefined ? undefined : config.projectDir, editor: config.editor });

  const collection = new RouteCollection();
  let rateLimiting: RateLimiting | undefined;
  let handler: RequestListener;
  // A failure past this point (a route naming an unknown limiter, a broken subscriber) closes the stores
  // already opened: a Redis connection left open would keep the process alive after the error.
  try {
    // The routing panel replays matches against the whole table, read when a panel is shown.
    if (profiler !== undefined) collection.addAll(createProfilerRoutes(profiler, { routes: collection, projectDir: config.projectDir, editor: config.editor, listenerSources: () => listenerSources(kernel.dispatcher, config.projectDir) }));
    const errorController = createErrorController(renderer);
    if (config.debug) collection.add(createPreviewErrorRoute(kernel, errorController));
    collection.addAll(routes);

    const { dispatcher } = kernel;
    // First, so that at equal priority the application's listeners run before keel's own, as in Symfony,
    // where an application's services are registered before the framework's (a response listener at 0
    // adds its headers before the ResponseListener's Content-Type).
    for (const subscriber of subscribers) dispatcher.addSubscriber(subscriber);
    dispatcher.addSubscriber(new OriginGuardListener());
    dispatcher.addSubscriber(new RouterListener({ matcher: collection.matcher(), logger: log, traceMisses: config.debug }));
    // After the router (32), so that the matched route's limiters are known; before the controller.
    rateLimiting = createRateLimiting({ config, routes: collection, logger: log });
    dispatcher.addSubscriber(rateLimiting.listener);
    dispatcher.addSubscriber(new JsonViewListener());
    dispatcher.addSubscriber(new ResponseListener());
    dispatcher.addSubscriber(new StreamStartListener());
    dispatcher.addSubscriber(
      new ErrorListener({
        logger: log,
        debug: config.debug,
        controller: errorController,
        // Like the reference's prod log handler (excluded_http_codes): a crawler's 404 is not an incident.
        skipLogStatuses: config.env === 'prod' ? [404, 405] : [],
      }),
    );
    if (profiler !== undefined) {
      for (const subscriber of profilerSubscribers(profiler, { toolbar: config.profiler.toolbar })) dispatcher.addSubscriber(subscriber);
    }
    if (config.disallowSearchEngineIndex) dispatcher.addSubscriber(new DisallowRobotsIndexingListener());

    const resolveOrigin = createOriginResolver(config);
    handler = createRequestListener(kernel, {
      resolveOrigin,
      bodyLimit: config.bodyLimit,
      onFatal: (error) => log.critical(LOG_MESSAGES.kernelFailure, { exception: error }),
      // With the request: the line is in its profile too, which is written once the stream has ended.
      onStreamError: (error, request) => log.channel('request').error(LOG_MESSAGES.responseStreamFailed, { exception: error, method: request.method, request_uri: request.pathInfo }, request),
      // In debug, what the kernel could not answer is still shown as its exception page (Symfony's ErrorHandler).
      failurePage: config.debug ? (error, request) => renderer.render(error, request) : undefined,
      sendTimeout: config.server?.sendTimeout,
      // Not held back with the request's records (prod's fingers crossed): its request is over, and the
      // line is what tells an operator why clients report cut downloads.
      onSendTimeout: (request, timeout) => log.channel('request').warning(LOG_MESSAGES.responseSendTimeout, { timeout, method: request.method, request_uri: request.pathInfo }),
    });
  } catch (error) {
    void Promise.allSettled([profiler?.store.close?.(), rateLimiting?.close()]);
    throw error;
  }

  const servers = new Set<RunningServer>();
  // Servers still binding their port: close() waits for them, so that it closes them too.
  const starting = new Set<Promise<RunningServer>>();
  const app: App = {
    config,
    kernel,
    logger: log,
    routes: collection,
    profiler,
    rateLimiting,
    handler,
    // The terminate listeners too (profile persistence), before answering: a front controller runs them
    // after sending, and Symfony's test client before handing the response over.
    async handle(request) {
      const response = await kernel.handle(request);
      await kernel.terminate(request, response);
      return response;
    },
    async listen(options = {}) {
      // An option given as undefined (`{ port: flags.port }`, the flag left out) keeps the configured value,
      // as a left-out key does: spread as it is, it would have serve() fall back to port 8000 on 127.0.0.1.
      const given = Object.fromEntries(Object.entries(options).filter(([, value]) => value !== undefined)) as ServeOptions;
      const started = serve(handler, { port: config.port, host: config.host, ...config.server, ...given });
      starting.add(started);
      let running: RunningServer;
      try {
        running = await started;
      } finally {
        starting.delete(started);
      }
      servers.add(running);
      log.info(LOG_MESSAGES.serverListening, { url: running.url, env: config.env, debug: config.debug });
      if (config.debug && !isLoopback(running.host)) log.warning(LOG_MESSAGES.debugOnPublicAddress, { host: running.host });
      return running;
    },
    async close() {
      // A listen() still under way would leave its server open, the process alive, after close() resolved.
      for (const result of await Promise.allSettled([...starting])) if (result.status === 'fulfilled') servers.add(result.value);
      await Promise.all([...servers].map((server) => server.close()));
      servers.clear();
      await handler.settle();
      // Pending profile writes ran at terminate; a network store (Redis) holds a connection open.
      await profiler?.flush();
      await profiler?.store.close?.();
      await rateLimiting.close();
      await log.close();
    },
  };
  resolver.context = app;
  return app;
}

function isLoopback(address: string): boolean {
  const host = address.toLowerCase().replace(/^\[|\]$/g, '').replace(/^::ffff:(?=\d+\.)/, '');
  return host === '::1' || host.startsWith('127.') || host === 'localhost';
}
