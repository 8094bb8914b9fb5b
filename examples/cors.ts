/**
 * Cross-origin requests (docs/routing.md): a subscriber that answers the browser's preflight `OPTIONS`
 * before routing, where no route would (a 405 otherwise), and lets allowed origins read the answers.
 * Symfony applications get this from NelmioCorsBundle, which works the same way: a request listener at
 * priority 250, after the host checks (256) and before the router (32), and a response listener.
 *
 *   node --import tsx examples/cors.ts          serve it on PORT (default 8000)
 *
 * keel does not export it: copy this file into an application, which imports keel as it does here.
 */
import { pathToFileURL } from 'node:url';
import { createApp, loadConfig, Response, type RequestEvent, type ResponseEvent, type RouteDefinition, type Subscriber, type Subscription } from 'keel';

export interface CorsOptions {
  /** Origins allowed to call the API, exactly as browsers send them: `https://app.example.com`. */
  origins: string[];
  methods?: string[];
  headers?: string[];
  /** How long a browser may reuse a preflight answer, in seconds. */
  maxAge?: number;
  /**
   * Response headers a page may read besides the few every page may (Content-Type…): a created resource's
   * Location, and the rate limits, so that a front end can say when to try again.
   */
  exposeHeaders?: string[];
  /** Whether the browser sends cookies and Authorization with cross-origin requests (fetch's `credentials: 'include'`). */
  credentials?: boolean;
}

export class CorsListener implements Subscriber {
  readonly #origins: Set<string>;
  readonly #preflight: Record<string, string>;
  readonly #answer: Record<string, string>;

  constructor({
    origins,
    methods = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'],
    headers = ['Content-Type', 'Authorization'],
    maxAge = 3600,
    exposeHeaders = ['Location', 'Retry-After', 'RateLimit', 'RateLimit-Policy'],
    credentials = false,
  }: CorsOptions) {
    this.#origins = new Set(origins);
    const withCredentials: Record<string, string> = credentials ? { 'Access-Control-Allow-Credentials': 'true' } : {};
    this.#preflight = { 'Access-Control-Allow-Methods': methods.join(', '), 'Access-Control-Allow-Headers': headers.join(', '), 'Access-Control-Max-Age': String(maxAge), ...withCredentials };
    this.#answer = { ...(exposeHeaders.length > 0 ? { 'Access-Control-Expose-Headers': exposeHeaders.join(', ') } : {}), ...withCredentials };
  }

  subscribedEvents(): Subscription[] {
    return [
      { event: 'request', listener: this.onRequest, priority: 250, name: 'CorsListener.onRequest' },
      { event: 'response', listener: this.onResponse, priority: 0, name: 'CorsListener.onResponse' },
    ];
  }

  /** A preflight is an OPTIONS request naming the method it asks about: answered here, for any path. */
  readonly onRequest = (event: RequestEvent): void => {
    const { request } = event;
    if (!event.isMainRequest || request.method !== 'OPTIONS' || request.header('access-control-request-method') === undefined) return;
    const origin = request.header('origin');
    // An origin not allowed gets an answer without permissions: the browser then refuses the real request.
    const allowed = origin !== undefined && this.#origins.has(origin) ? { 'Access-Control-Allow-Origin': origin, ...this.#preflight } : {};
    event.setResponse(new Response('', 204, { ...allowed, Vary: 'Origin' }));
  };

  /** Every answer to an allowed origin may be read by its page. */
  readonly onResponse = (event: ResponseEvent): void => {
    const origin = event.request.header('origin');
    if (!event.isMainRequest || origin === undefined || !this.#origins.has(origin)) return;
    // The exact origin, never `*`: a wildcard would not do with credentials, and the answer varies by origin.
    event.response.headers.set('Access-Control-Allow-Origin', origin);
    for (const [name, value] of Object.entries(this.#answer)) event.response.headers.set(name, value);
    // The preflight answer above says it already.
    if (!event.response.headers.all('vary').some((value) => /(?:^|,)\s*origin\s*(?:,|$)/i.test(value))) event.response.headers.append('Vary', 'Origin');
  };
}

export const routes: RouteDefinition[] = [{ name: 'api_books', path: '/api/books', methods: ['GET', 'POST'], controller: () => ({ books: ['Refactoring'] }) }];

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const app = createApp({ config: loadConfig(), routes, subscribers: [new CorsListener({ origins: ['http://localhost:5173'] })] });
  const server = await app.listen();
  process.stdout.write(`listening on ${server.url}\n`);
  process.once('SIGTERM', () => void app.close().then(() => process.exit(0)));
}
