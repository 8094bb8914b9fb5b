import { describeType } from '../internal/describe-type.js';
import { formatHttpDate } from '../internal/http-date.js';
import { parseCacheControl, writeCacheControl, type CacheDirectives } from './cache-control.js';
import { discardStreamedBody, isBodyStream, type BodyStream } from './body-stream.js';
import { HeaderBag } from './header-bag.js';
import { statusText } from './status-texts.js';
import { renderRedirectPage } from './views/redirect-page.js';

export type ResponseBody = string | Buffer | BodyStream;
export type HeadersInit = Record<string, string | string[]> | Iterable<readonly [string, string]>;

/**
 * An HTTP response. Like Symfony's Response, a new response carries the headers it was given, then
 * `Cache-Control` (computed, `no-cache, private` when nothing says otherwise) and `Date`: that is the
 * order the reference sends them in.
 */
export class Response {
  body: ResponseBody;
  readonly headers: HeaderBag;
  #cacheDirectives: CacheDirectives | undefined;
  #status = 200;

  constructor(body: ResponseBody = '', status = 200, headers?: HeadersInit) {
    // Said here, in the controller that builds it: an object would otherwise fail later, in the toolbar or
    // the socket write, as an error that names neither.
    if (typeof body !== 'string' && !Buffer.isBuffer(body) && !isBodyStream(body)) {
      throw new TypeError(
        `A Response body is a string, a Buffer or a stream (a Readable, a ReadableStream, an async iterable of chunks), not ${describeType(body)}: return a plain object (or Response.json()) for JSON.`,
      );
    }
    this.body = body;
    this.headers = new HeaderBag();
    try {
      this.status = status;
      this.#setHeaders(headers);
    } catch (error) {
      // A bad status or header name fails the controller: a stream it was given (an open file) is let go of.
      discardStreamedBody(this);
      throw error;
    }
    if (!this.headers.has('cache-control')) this.headers.set('Cache-Control', this.#computeCacheControl());
    if (!this.headers.has('date')) this.headers.set('Date', formatHttpDate());
  }

  #setHeaders(headers: HeadersInit | undefined): void {
    if (headers !== undefined) {
      if (Symbol.iterator in headers) {
        // Pairs may repeat a name (two Set-Cookie lines): each one after the first adds a value.
        for (const [name, value] of headers as Iterable<readonly [string, string]>) {
          if (this.headers.has(name)) this.headers.append(name, value);
          else this.setHeader(name, value);
        }
      } else {
        for (const [name, value] of Object.entries(headers)) this.setHeader(name, value);
      }
    }
  }

  get status(): number {
    return this.#status;
  }

  /** Throws for anything but an integer from 100 to 599, with the reference's message (RFC 9110 §15). */
  set status(status: number) {
    if (!Number.isInteger(status) || status < 100 || status >= 600) throw new RangeError(`The HTTP status code "${status}" is not valid.`);
    this.#status = status;
  }

  get statusText(): string {
    return statusText(this.status);
  }

  /**
   * Sets a header. Setting Cache-Control, Expires or Last-Modified recomputes the Cache-Control value
   * the way Symfony does (directives sorted, `private` added unless public/private/s-maxage is given).
   */
  setHeader(name: string, value: string | number | readonly string[]): this {
    const key = name.toLowerCase();
    if (key === 'cache-control') {
      this.#cacheDirectives = parseCacheControl(Array.isArray(value) ? value.join(', ') : String(value));
      this.headers.set('Cache-Control', this.#computeCacheControl());
      return this;
    }
    this.headers.set(name, value);
    if ((key === 'expires' || key === 'last-modified') && this.headers.has('cache-control')) {
      this.headers.set('Cache-Control', this.#computeCacheControl());
    }
    return this;
  }

  /**
   * Whether the body is a stream: sent as it is produced, in chunks unless a Content-Length is set, and
   * never held whole, so neither the toolbar nor a Content-Length computed by keel applies to it.
   */
  get isStreamed(): boolean {
    return isBodyStream(this.body);
  }

  get isInformational(): boolean {
    return this.status >= 100 && this.status < 200;
  }

  get isRedirection(): boolean {
    return this.status >= 300 && this.status < 400;
  }

  /** Symfony's isRedirect(): a status RedirectResponse accepts, 201 included and 300, 304 and 305 not. */
  get isRedirect(): boolean {
    return REDIRECT_STATUSES.has(this.status);
  }

  get isClientError(): boolean {
    return this.status >= 400 && this.status < 500;
  }

  get isServerError(): boolean {
    return this.status >= 500 && this.status < 600;
  }

  get isEmpty(): boolean {
    return this.status === 204 || this.status === 304;
  }

  #computeCacheControl(): string {
    const directives = this.#cacheDirectives;
    if (directives === undefined || directives.size === 0) {
      return this.headers.has('last-modified') || this.headers.has('expires') ? 'private, must-revalidate' : 'no-cache, private';
    }
    const value = writeCacheControl(directives);
    if (directives.has('public') || directives.has('private') || directives.has('s-maxage')) return value;
    return `${value}, private`;
  }

  /** A plain-text response (`text/plain; charset=UTF-8`). */
  static text(body: string, status = 200, headers?: HeadersInit): Response {
    return typed(body, status, 'text/plain; charset=UTF-8', headers);
  }

  /** An HTML response (`text/html; charset=UTF-8`). */
  static html(body: string, status = 200, headers?: HeadersInit): Response {
    return typed(body, status, 'text/html; charset=UTF-8', headers);
  }

  /**
   * A stream of server-sent events (`text/event-stream; charset=UTF-8`) from a source yielding
   * serverSentEvent()s, with `X-Accel-Buffering: no`: behind nginx, which buffers what it proxies, the events
   * would otherwise reach the client late and in bursts. A header given in `headers` replaces either.
   * @example return Response.eventStream(prices(request.signal));
   */
  static eventStream(events: BodyStream, status = 200, headers?: HeadersInit): Response {
    return new Response(events, status, { 'Content-Type': 'text/event-stream; charset=UTF-8', 'X-Accel-Buffering': 'no', ...toRecord(headers) });
  }

  /**
   * A JSON response, safe to embed in HTML as Symfony's JsonResponse makes it: `<`, `>`, `&`, `'` and a
   * string's `"` are written `\u003C`, `\u003E`, `\u0026`, `\u0027` and `\u0022`; `/` and non-ASCII
   * characters are left as they are, unlike PHP's json_encode defaults. Data JSON cannot write (undefined,
   * a function, a BigInt, a cycle) throws here, in the controller. Its Content-Type comes after
   * Cache-Control and Date, where Symfony's JsonResponse sets it once its data is in; one given in
   * `headers` stays as given.
   */
  static json(data: unknown, status = 200, headers?: HeadersInit): Response {
    const response = new Response(encodeJson(data), status, headers === undefined ? undefined : toRecord(headers));
    if (!response.headers.has('content-type')) response.headers.set('Content-Type', 'application/json');
    return response;
  }

  /**
   * A redirect, shaped like Symfony's RedirectResponse: an HTML body with a meta refresh, a lower-case
   * `charset=utf-8`, and no Cache-Control on a 301 (Symfony removes the default for permanent redirects).
   * An empty URL, or a status that is no redirect, throws with the reference's message.
   */
  static redirect(url: string, status = 302, headers?: HeadersInit): Response {
    const given = toRecord(headers);
    const response = new Response(renderRedirectPage(url), status, given);
    // In RedirectResponse's order, once the status is known valid: an empty Location sends the browser
    // back to the page it asked for, which redirects it again, without end.
    if (url === '') throw new TypeError('Cannot redirect to an empty URL.');
    if (!REDIRECT_STATUSES.has(status)) throw new RangeError(`The HTTP status code is not a redirect ("${status}" given).`);
    response.headers.set('Location', url);
    response.headers.set('Content-Type', 'text/html; charset=utf-8');
    if (status === 301 && !Object.keys(given).some((name) => name.toLowerCase() === 'cache-control')) response.headers.delete('cache-control');
    return response;
  }
}

// Symfony's Response::isRedirect() statuses, which RedirectResponse accepts.
const REDIRECT_STATUSES = new Set([201, 301, 302, 303, 307, 308]);

/**
 * A response whose first header is its Content-Type. Without other headers the type goes in as a single
 * pair, not through a record built, spread and read back as entries (every JSON answer of an API pays it).
 */
function typed(body: string, status: number, type: string, headers: HeadersInit | undefined): Response {
  if (headers === undefined) return new Response(body, status, [['Content-Type', type]]);
  return new Response(body, status, { 'Content-Type': type, ...toRecord(headers) });
}

// JsonResponse's default flags, JSON_HEX_TAG | JSON_HEX_APOS | JSON_HEX_AMP | JSON_HEX_QUOT: a value holding
// `</script>` cannot end the script element a page embeds the JSON in, nor a quote the attribute. The text
// is scanned once more only when it holds one of them; `\\.` takes each escape whole, so that the `"`
// closing a string that ends in a backslash (`"a\\"`) is not read as an escaped one.
const HTML_SPECIAL = /[<>&']|\\"/;
const HTML_SPECIALS = /[<>&']|\\./g;
const HEX_ESCAPES: Record<string, string> = { '<': '\\u003C', '>': '\\u003E', '&': '\\u0026', "'": '\\u0027', '\\"': '\\u0022' };

function encodeJson(data: unknown): string {
  let text: string | undefined;
  try {
    text = JSON.stringify(data);
  } catch (error) {
    throw new TypeError(`Response.json() cannot write its data as JSON: ${(error as Error).message}.`, { cause: error });
  }
  // undefined, a function or a symbol: JSON.stringify gives no text, and the answer would be an empty body.
  if (text === undefined) throw new TypeError(`Response.json() cannot write ${data === undefined ? 'undefined' : describeType(data)} as JSON: give it an object, an array, a string, a number, a boolean or null.`);
  return HTML_SPECIAL.test(text) ? text.replace(HTML_SPECIALS, (match) => HEX_ESCAPES[match] ?? match) : text;
}

// Repeated names of pairs become one name with every value, matched in any case as the constructor matches
// them (`Set-Cookie` then `set-cookie`): as two keys of the record, the second replaced the first. Without
// a prototype: an upstream's `constructor` or `__proto__` header passed on is a name like others.
function toRecord(headers: HeadersInit | undefined): Record<string, string | string[]> {
  if (headers === undefined) return {};
  if (!(Symbol.iterator in headers)) return headers as Record<string, string | string[]>;
  const record = Object.create(null) as Record<string, string | string[]>;
  const spelled = new Map<string, string>();
  for (const [given, value] of headers as Iterable<readonly [string, string]>) {
    const lower = given.toLowerCase();
    const name = spelled.get(lower) ?? given;
    spelled.set(lower, name);
    const present = record[name];
    record[name] = present === undefined ? value : [...(Array.isArray(present) ? present : [present]), value];
  }
  return record;
}

