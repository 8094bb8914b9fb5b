import type { App } from '../app.js';
import type { IncomingHttpHeaders } from 'node:http';
import type { RequestStack } from '../kernel/request-stack.js';
import { normalizeQueryString } from './normalize-query.js';
import { directOrigin } from './direct-origin.js';
import { pathAndQuery } from './request-target.js';
import type { OriginResolver, RequestOrigin } from './request-origin.js';
import { signalOf, type SignalSource } from './request-signal.js';
import type { BodySource, RequestInit } from './request-init.js';
import { headerFromLines, headersFromLines, isHeaderLines, normalizeRecord, sameSelectedLines, selectLines, selectRecord, type HeaderNameSet } from './header-lines.js';

export type RequestType = 'main' | 'sub';

export type { OriginResolver, RequestOrigin } from './request-origin.js';
export type { SignalSource } from './request-signal.js';
export type { BodySource, RequestInit } from './request-init.js';

/**
 * Typed request attributes. Symfony keeps these in a string-keyed bag (`_route`, `_controller`); keel
 * declares them, and components add their own by module augmentation of this interface.
 */
export interface RequestAttributes {
  /** Name of the matched route. */
  route?: string;
  /** Placeholder values and defaults of the matched route. */
  routeParams?: Record<string, string>;
  controller?: Controller;
  /** Human-readable controller name for logs and the profiler. */
  controllerName?: string;
  /** Declared by a route's `stateless` option; the session must not be used. */
  stateless?: boolean;
  /** The error an error sub-request renders. */
  exception?: unknown;
  /** Forced response format (`html`, `json`, `xml`, …), like Symfony's `_format`. */
  format?: string;
  /** Set on a request whose error was rendered: debug mode strips its Content-Security-Policy. */
  removeCspHeaders?: boolean;
  /** When false, the error renderer hides internals even in debug (Symfony's `showException`). */
  showException?: boolean;
}

/**
 * A controller, called as `(request, params, app)`: the route parameters, and the application that
 * createApp built (its kernel for sub-requests, its routes for URLs, its limiters), also when `keel serve`
 * built it. Parameters are checked bivariantly, as React types its event handlers, so that a controller may
 * declare the parameters its route gives: `(request, { id }: { id: string }) => …`, without a cast.
 */
export type Controller = { bivarianceHack(request: Request, params: Record<string, string>, app: App): unknown }['bivarianceHack'];

let nextRequestId = 0;
// Read once: performance.timeOrigin is a getter that asks node's binding on every read, and never changes.
const TIME_ORIGIN = performance.timeOrigin;
// node's parser gives the method upper-cased already; toUpperCase() would still go through V8's runtime.
const upperCaseMethod = (method: string): string => (method === 'GET' || method === 'POST' || method === 'HEAD' ? method : method.toUpperCase());

/**
 * An HTTP request as the kernel sees it: the raw path (still percent-encoded, as Symfony's pathInfo),
 * the query string, headers, typed attributes, and the origin resolved from trusted proxies on first use.
 */
export class Request {
  /** Method after `X-HTTP-Method-Override` (POST only, as Symfony's getMethod()). */
  method: string;
  /**
   * An `X-HTTP-Method-Override` of a POST that is not a method name (`PA-TCH`), upper-cased: the router
   * refuses the request with the reference's 400, where Symfony's getMethod() throws.
   */
  invalidMethodOverride: string | undefined;
  readonly realMethod: string;
  readonly pathInfo: string;
  readonly queryString: string;
  readonly remoteAddress: string;
  readonly remotePort: number;
  readonly localPort: number | undefined;
  readonly encrypted: boolean;
  readonly httpVersion: string;
  /** Sequence number, unique in this process: joins log lines of one request. */
  readonly id: number;
  /** When the kernel started handling it, in ms since the epoch (performance.timeOrigin-based). */
  readonly startedAt: number;
  attributes: RequestAttributes = {};
  type: RequestType = 'main';
  /** The request this one was duplicated from (the failed request, for an error sub-request). */
  parent: Request | undefined;
  stack: RequestStack | undefined;
  localHost = 'localhost';
  #origin: RequestOrigin | undefined;
  #resolveOrigin: OriginResolver;
  #body: Buffer | (() => Promise<Buffer>) | BodySource | undefined;
  #bodyRead: Promise<Buffer> | undefined;
  #bodyReadFailed = false;
  #query: URLSearchParams | undefined;
  #normalizedQuery: string | undefined;
  #headers: IncomingHttpHeaders | undefined;
  #lines: readonly string[] | undefined;
  #signal: AbortSignal | SignalSource | undefined;

  constructor(init: RequestInit) {
    this.realMethod = upperCaseMethod(init.method);
    const headers = init.headers ?? {};
    if (isHeaderLines(headers)) this.#lines = headers.rawHeaders;
    else this.#headers = normalizeRecord(headers);
    const override = this.realMethod === 'POST' ? this.header('x-http-method-override') : undefined;
    this.method = this.realMethod;
    // Present but empty is no method name either: Symfony falls back to POST only through `_method`, which
    // keel does not read (http_method_override off), so an empty header is refused as `PA-TCH` is.
    if (override !== undefined) {
      // Symfony's strtoupper(): ASCII letters only.
      const method = override.replace(/[a-z]+/g, (letters) => letters.toUpperCase());
      if (/^[A-Z]+$/.test(method)) this.method = method;
      else this.invalidMethodOverride = method;
    }
    const target = pathAndQuery(init.target);
    const q = target.indexOf('?');
    this.pathInfo = q === -1 ? target : target.slice(0, q);
    this.queryString = q === -1 ? '' : target.slice(q + 1);
    this.remoteAddress = init.remoteAddress ?? '127.0.0.1';
    this.remotePort = init.remotePort ?? 0;
    this.localPort = init.localPort;
    this.encrypted = init.encrypted ?? false;
    this.httpVersion = init.httpVersion ?? '1.1';
    this.#body = typeof init.body === 'string' ? Buffer.from(init.body) : init.body;
    this.#resolveOrigin = init.resolveOrigin ?? directOrigin;
    this.#signal = init.signal;
    this.id = ++nextRequestId;
    this.startedAt = TIME_ORIGIN + performance.now();
  }

  /**
   * Aborts when the client goes away before the response is complete (the Fetch API's `request.signal`),
   * and when the server stops while the response is streamed: a controller streaming server-sent events,
   * or waiting on slow work, can stop there. A sub-request shares its parent's.
   * @example for await (const [event] of on(newsFeed, 'news', { signal: request.signal })) … // on() of node:events
   */
  get signal(): AbortSignal {
    return (this.#signal = signalOf(this.#signal));
  }

  /** Header names in lower case; repeated headers joined as node joins them (Set-Cookie is a list). */
  get headers(): IncomingHttpHeaders {
    return (this.#headers ??= headersFromLines(this.#lines!));
  }

  /** First value of a request header (names are case-insensitive). */
  header(name: string): string | undefined {
    const key = name.toLowerCase();
    if (this.#headers === undefined) return headerFromLines(this.#lines!, key);
    const value = this.#headers[key];
    return Array.isArray(value) ? value[0] : value;
  }

  /** The lines of these headers, in order, as `[name, value, name, value…]`: one pass, not one per header. */
  headerLines(names: HeaderNameSet): string[] {
    return this.#headers === undefined ? selectLines(this.#lines!, names) : selectRecord(this.#headers, names);
  }

  /** Whether headerLines(names) equals `lines`, found without building it. */
  hasHeaderLines(names: HeaderNameSet, lines: readonly string[]): boolean {
    if (this.#headers !== undefined) {
      const own = selectRecord(this.#headers, names);
      return own.length === lines.length && own.every((line, i) => line === lines[i]);
    }
    return sameSelectedLines(this.#lines!, names, lines);
  }

  get query(): URLSearchParams {
    return (this.#query ??= new URLSearchParams(this.queryString));
  }

  /** Scheme, host, port and client addresses as the proxy settings resolve them; read-only (may be shared and frozen). */
  get origin(): RequestOrigin {
    return (this.#origin ??= this.#resolveOrigin(this));
  }

  get scheme(): 'http' | 'https' {
    return this.origin.scheme;
  }

  get host(): string {
    return this.origin.host;
  }

  get port(): number {
    return this.origin.port;
  }

  /** The right-most address not belonging to a trusted proxy. */
  get clientIp(): string {
    return this.origin.clientIps[0] ?? this.remoteAddress;
  }

  get isSecure(): boolean {
    return this.origin.scheme === 'https';
  }

  /** `host[:port]`, the port omitted when it is the scheme's default. */
  get httpHost(): string {
    const { scheme, host, port } = this.origin;
    return (scheme === 'http' && port === 80) || (scheme === 'https' && port === 443) ? host : `${host}:${port}`;
  }

  get schemeAndHttpHost(): string {
    return `${this.origin.scheme}://${this.httpHost}`;
  }

  /** Absolute URL for a path of this application (Symfony's getUriForPath). */
  uriForPath(path: string): string {
    return this.schemeAndHttpHost + this.origin.prefix + path;
  }

  /**
   * Absolute URL of this request, query string included, normalised as Symfony's getUri() writes it
   * (parameters sorted and re-encoded, see normalizeQueryString): the matched route's log line and the
   * profiler show this form.
   */
  get uri(): string {
    // Normalised once: the log line, the profile and its request panel each ask for the URI.
    const query = (this.#normalizedQuery ??= normalizeQueryString(this.queryString));
    return this.uriForPath(this.pathInfo) + (query === '' ? '' : `?${query}`);
  }

  get isMainRequest(): boolean {
    return this.type === 'main';
  }

  /**
   * The request body, read once (bounded by the server's body limit) and cached. A failed read is cached
   * too: a later caller (the controller, after the rate limiter read the body for its account key) gets the
   * same 413 or 400, never what a second read of a stream still arriving would collect.
   */
  body(): Promise<Buffer> {
    return (this.#bodyRead ??= this.#readBody().catch((error: unknown) => {
      this.#bodyReadFailed = true;
      throw error;
    }));
  }

  /**
   * Whether reading the body failed (over the body limit, cut off, the client gone): the profiler tells such
   * a body from one nobody asked for.
   */
  get bodyReadFailed(): boolean {
    return this.#bodyReadFailed;
  }

  /** The body if it is in memory (read by body(), or given as bytes), without reading it. */
  get bufferedBody(): Buffer | undefined {
    return Buffer.isBuffer(this.#body) ? this.#body : undefined;
  }

  async #readBody(): Promise<Buffer> {
    const body = this.#body;
    if (typeof body === 'function') this.#body = await body();
    else if (body !== undefined && !Buffer.isBuffer(body)) this.#body = await body.read();
    return (this.#body as Buffer | undefined) ?? Buffer.alloc(0);
  }

  /**
   * A copy for a sub-request, with its parent and stack: same headers, peer and origin, same path and query
   * unless `target` names a URL for the router to match; attributes replaced (the error listener's controller).
   */
  duplicate({ attributes = {}, method, target }: { attributes?: RequestAttributes; method?: string; target?: string } = {}): Request {
    const copy = new Request({
      method: this.realMethod,
      target: target ?? (this.queryString === '' ? this.pathInfo : `${this.pathInfo}?${this.queryString}`),
      headers: this.#headers ?? { rawHeaders: this.#lines! },
      remoteAddress: this.remoteAddress,
      remotePort: this.remotePort,
      localPort: this.localPort,
      encrypted: this.encrypted,
      httpVersion: this.httpVersion,
      body: this.#body,
      resolveOrigin: this.#resolveOrigin,
      signal: this.#signal,
    });
    copy.method = method ?? this.method;
    copy.attributes = attributes;
    copy.parent = this;
    copy.stack = this.stack;
    copy.localHost = this.localHost;
    copy.#origin = this.#origin;
    return copy;
  }
}
