import { gzipSync } from 'node:zlib';
import type { KeelConfig } from '../config/config.js';
import { createErrorController } from '../errors/error-controller.js';
import { ErrorListener } from '../errors/error-listener.js';
import { ErrorRenderer } from '../errors/renderers/error-renderer.js';
import { Request } from '../http/request.js';
import { Response } from '../http/response.js';
import { Kernel } from '../kernel/kernel.js';
import { AbstractLogger, type LogContext, type Logger } from '../logging/logger.js';
import type { LogLevel } from '../logging/log-record.js';
import { Matcher } from '../routing/matcher.js';
import { compileRoute, type Route, type RouteDefinition } from '../routing/route.js';
import { RouterListener } from '../routing/router-listener.js';
import type { Collector } from './collectors/collector.js';
import { createDefaultCollectors, createProfiler, profilerSubscribers } from './create-profiler.js';
import { MemoryProfileStore } from './memory-profile-store.js';
import type { StagingProfileStore } from './profiler.js';
import { listenerSources } from './listener-sources.js';
import { createProfilerRoutes } from './ui/profiler-routes.js';

export const TEST_CONFIG: KeelConfig = {
  env: 'dev',
  debug: true,
  port: 8000,
  host: '127.0.0.1',
  projectDir: '/app',
  varDir: '/app/var',
  trustedProxies: [],
  trustedHeaders: [],
  trustedHosts: [],
  disallowSearchEngineIndex: true,
  profiler: { enabled: true, toolbar: true, maxRecords: 100, maxAge: 172800, storage: 'memory' },
  log: { level: 'debug', file: undefined },
  rateLimiter: { api: { policy: 'fixed_window', limit: 5, interval: 60 } },
  bodyLimit: 1024,
};

/** Keeps records on the request only, as the real logger does in debug, and writes nothing. */
class SilentLogger extends AbstractLogger {
  declare readonly channelName: string;

  constructor(channelName = 'app') {
    super();
    this.channelName = channelName;
  }
  channel(name: string): Logger {
    return new SilentLogger(name);
  }
  log(level: LogLevel, message: string, context: LogContext = {}, request?: Request): void {
    request?.stack?.logs.push({ time: Date.now(), level, channel: this.channelName, message, context, requestId: request.id });
  }
}

/** Tokens 000001, 000002, … in order. */
export function sequentialTokens(): () => string {
  let next = 0;
  return () => (++next).toString(16).padStart(6, '0');
}

/**
 * A whole dev application in process: router, error listener and the profiler wired as an application
 * would wire them, profiler routes before the application's.
 */
export function createProfiledApp({ store = new MemoryProfileStore(), toolbar = true, collectors = [] }: { store?: StagingProfileStore; toolbar?: boolean; collectors?: Collector[] } = {}) {
  const kernel = new Kernel();
  const logger = new SilentLogger();
  const profiler = createProfiler({
    store,
    collectors: [...createDefaultCollectors({ config: TEST_CONFIG, dispatcher: kernel.dispatcher }), ...collectors],
    generateToken: sequentialTokens(),
    clock: () => 1_800_000_000_000,
  });
  const appRoutes: RouteDefinition[] = [
    { name: 'home', path: '/', controller: () => Response.html('<html><body><h1>home</h1></body></html>') },
    { name: 'blog_index', path: '/blog/', controller: () => Response.html('<html><body>blog</body></html>') },
    { name: 'api', path: '/api', stateless: true, controller: () => Response.json({ ok: true }) },
    { name: 'fragment', path: '/fragment', controller: () => Response.html('<p>no body element</p>') },
    // Upper case after a character whose lower case is longer (İ → i̇): offsets must come from the page itself.
    { name: 'shout', path: '/shout', controller: () => Response.html('<HTML><BODY>İSTANBUL</BODY></HTML>') },
    { name: 'mixed_case', path: '/mixed-case', controller: () => Response.html('<html><body>a</body><p>b</p></BODY></html>') },
    { name: 'mixed_case_bytes', path: '/mixed-case-bytes', controller: () => new Response(Buffer.from('<html><body>a</body><p>b</p></BODY></html>'), 200, [['Content-Type', 'text/html']]) },
    // A 201 without Location: Symfony's isRedirect() goes by the status alone.
    { name: 'created', path: '/created', controller: () => new Response('', 201) },
    { name: 't_café', path: '/cafe', controller: () => new Response('', 302, [['Location', '/']]) },
    // Level 0 writes stored blocks: the compressed bytes hold `</body>` as it is.
    { name: 'gzipped', path: '/gzipped', controller: () => new Response(gzipSync('<html><body>gz</body></html>', { level: 0 }), 200, [['Content-Type', 'text/html'], ['Content-Encoding', 'gzip']]) },
    { name: 'download', path: '/download', controller: () => Response.html('<html><body>file</body></html>', 200, { 'Content-Disposition': 'attachment' }) },
    // A page in another charset than the toolbar's UTF-8, under a route whose name is not ASCII.
    { name: 'page_été', path: '/latin1', controller: () => new Response(Buffer.from('<html><body>café</body></html>', 'latin1'), 200, [['Content-Type', 'text/html; charset=ISO-8859-1']]) },
    // Media types are case-insensitive (RFC 9110 §8.3.1).
    { name: 'upper_type', path: '/upper-type', controller: () => new Response('<html><body>u</body></html>', 200, [['Content-Type', 'Text/HTML; charset=UTF-8']]) },
    { name: 'bytes', path: '/bytes', controller: () => new Response(Buffer.from('<html><body>bytes</body></html>'), 200, [['Content-Type', 'text/html; charset=UTF-8']]) },
  ];
  // Filled below: the profiler reads the table only when a routing panel is shown.
  const routes: Route[] = [];
  // As the application wires it: listeners located when the events panel is shown, paths from the project.
  const sources = () => listenerSources(kernel.dispatcher, process.cwd());
  routes.push(...[...createProfilerRoutes(profiler, { routes, listenerSources: sources }), ...appRoutes].map(compileRoute));
  kernel.dispatcher.addSubscriber(new RouterListener({ matcher: new Matcher(routes), logger }));
  kernel.dispatcher.addSubscriber(new ErrorListener({ logger, debug: true, controller: createErrorController(new ErrorRenderer({ debug: true })) }));
  for (const subscriber of profilerSubscribers(profiler, { toolbar, clock: () => 1_800_000_000_000 })) kernel.dispatcher.addSubscriber(subscriber);

  async function get(target: string, headers: Record<string, string> = {}) {
    const request = new Request({ method: 'GET', target, headers: { host: 'localhost', ...headers } });
    const response = await kernel.handle(request);
    await kernel.terminate(request, response);
    return response;
  }
  return { kernel, profiler, store, get };
}

export function bodyOf(response: Response): string {
  const body = response.body;
  if (typeof body === 'string') return body;
  if (Buffer.isBuffer(body)) return body.toString('utf8');
  throw new TypeError('bodyOf() reads bodies held in memory, not streams.');
}

/** A profiled app after the seed 404: its two tokens, the failed answer, and a getter of the main record's pages. */
export async function failedRequest(target = '/robots.txt', headers: Record<string, string> = {}) {
  const app = createProfiledApp();
  const failed = await app.get(target, headers);
  const main = failed.headers.get('x-debug-token')!;
  const page = async (query: string) => bodyOf(await app.get(`/_profiler/${main}?${query}`));
  return { ...app, failed, main, sub: failed.headers.get('x-previous-debug-token')!, page };
}
