import { headerText } from '../http/header-text.js';
import { badRequest, type HttpException, MethodNotAllowedHttpException, NotFoundHttpException } from '../http/http-exception.js';
import type { Controller, Request } from '../http/request.js';
import { SuspiciousOperationException } from '../http/request-exceptions.js';
import { Response } from '../http/response.js';
import type { Subscriber, Subscription } from '../kernel/event-dispatcher.js';
import type { RequestEvent } from '../kernel/events.js';
import { LOG_MESSAGES } from '../logging/log-messages.js';
import type { Logger } from '../logging/logger.js';
import { shareFrames } from '../internal/share-frames.js';
import { isRedirect, missError, type MatchContext, type Matcher, type RedirectMatch, type RouteMiss } from './matcher.js';
import type { Route } from './route.js';

/** What the router saw, kept on the request for the profiler's routing panel. */
export interface RoutingRecord {
  context: MatchContext;
  /**
   * The route matched (the redirect's target when the router answers with a redirect): its options, host
   * and methods, for a listener after the router, which has the route's name in attributes.route only.
   */
  route?: Route;
  /** Set when the router answered with a redirect: where to, and the absolute Location sent. */
  redirect?: { path: string; scheme?: string; url: string };
}

declare module '../http/request.js' {
  interface RequestAttributes {
    routing?: RoutingRecord;
  }
}

export interface RouterListenerOptions {
  matcher: Matcher;
  logger: Logger;
  /**
   * Whether the 404/405 errors of routing misses carry a stack trace (default true). Only a debug page
   * shows it, and it only ever points into the router; capturing it is most of what a miss costs, so the
   * app turns it off when debug is.
   */
  traceMisses?: boolean;
}

/**
 * Matches the request against the route table (kernel `request` event, priority 32, as Symfony's
 * RouterListener) and fills the request attributes: route, routeParams, controller, controllerName,
 * stateless. A miss becomes the exact 404 or 405 of the reference system.
 * @example kernel.dispatcher.addSubscriber(new RouterListener({ matcher: new Matcher(routes), logger }));
 */
export class RouterListener implements Subscriber {
  readonly #matcher: Matcher;
  readonly #logger: Logger;
  readonly #traceMisses: boolean;

  constructor({ matcher, logger, traceMisses = true }: RouterListenerOptions) {
    this.#matcher = matcher;
    this.#logger = logger.channel('request');
    this.#traceMisses = traceMisses;
  }

  subscribedEvents(): Subscription[] {
    return [{ event: 'request', listener: this.onRequest.bind(this), priority: 32 }];
  }

  onRequest(event: RequestEvent): void {
    const { request } = event;
    // The error sub-request arrives with its controller already chosen.
    if (request.attributes.controller !== undefined) return;
    // Where Symfony first reads the method, and throws for an override that is no method name.
    if (request.invalidMethodOverride !== undefined) {
      // The reference's fixed text: the value sent is neither quoted into the log nor into X-Debug-Exception.
      event.fail(badRequest(new SuspiciousOperationException('Invalid HTTP method override.'), 'KEEL_ERR_INVALID_METHOD_OVERRIDE'));
      return;
    }

    const context: MatchContext = { method: request.method, path: request.pathInfo, host: request.host, scheme: request.scheme };
    const routing: RoutingRecord = { context };
    request.attributes.routing = routing;
    // lookup() returns a miss rather than throwing it, and the request fails with the HTTP error rather than
    // by a throw (see RequestEvent.fail): a 404 builds its two errors and throws none.
    const result = this.#matcher.lookup(context);
    if ('miss' in result) {
      event.fail(this.#missError(request, result.miss));
      return;
    }

    const { route, params } = result;
    routing.route = route;
    const routeParams = { ...route.defaults, ...params };
    request.attributes.route = route.name;
    request.attributes.routeParams = routeParams;
    request.attributes.stateless = route.stateless;
    // A route's `_format` (a default or a placeholder) is the request's format, as Symfony's request
    // attributes make it: the error page and the response's Content-Type follow it.
    if (typeof routeParams['_format'] === 'string' && routeParams['_format'] !== '') request.attributes.format = routeParams['_format'];
    let logged: Record<string, unknown>;
    if (isRedirect(result)) {
      const url = redirectUrl(request, result);
      routing.redirect = { ...result.redirect, url };
      request.attributes.controller = createRedirectController(url);
      request.attributes.controllerName = 'RedirectController';
      logged = { ...redirectParameters(request, route.name, result) };
      // The reference returns `redirect(…) + $ret`: the target route's defaults and placeholders follow,
      // a key the redirect controller already sets keeping its value (PHP's array union).
      for (const [key, value] of Object.entries(routeParams)) if (!Object.hasOwn(logged, key)) logged[key] = value;
    } else {
      request.attributes.controller = route.controller;
      request.attributes.controllerName = controllerNameOf(route.controller) ?? route.name;
      // What the reference's matcher returns: the route and controller first, then defaults and placeholders.
      logged = { _route: route.name, _controller: request.attributes.controllerName, ...routeParams };
    }
    // The template, not its text: the logger fills `{route}` from the context (once, and only when the
    // record is written), so a route name holding braces is never filled a second time.
    this.#logger.info(LOG_MESSAGES.matchedRoute, { route: route.name, route_parameters: logged, request_uri: request.uri, method: request.method }, request);
  }

  /**
   * The 404 or 405 of a miss, its cause the exception the matcher would have thrown (see missError).
   * Neither is thrown (see RequestEvent.fail). V8 captures the stack once, the cause's, from the matcher
   * on; the HTTP error, built on the same line, is given the same frames less the matcher's own: capturing
   * costs ~14 µs an error at a server's depth, and formatting the frames as much again. Without traces,
   * V8 captures nothing for either.
   */
  #missError(request: Request, miss: RouteMiss): HttpException {
    const limit = Error.stackTraceLimit;
    if (!this.#traceMisses) Error.stackTraceLimit = 0;
    let error: HttpException;
    try {
      // Each error and its cause on one line: the HTTP error's first frame is the line the cause was made on.
      error =
        miss.kind === 'notFound'
          ? new NotFoundHttpException(routingErrorMessage(request), { cause: untracedAfter(missError(miss)), code: 'KEEL_ERR_ROUTE_NOT_FOUND' })
          : new MethodNotAllowedHttpException(miss.allow, routingErrorMessage(request, miss.allow), { cause: untracedAfter(missError(miss)) });
    } finally {
      Error.stackTraceLimit = limit;
    }
    if (this.#traceMisses) shareFrames(error.cause as Error, error, { skip: 1 });
    return error;
  }
}

// Stops V8's stack capture once the value is made: the error made next, of which it is an argument, takes
// its frames from it (see RouterListener's #missError). The caller restores Error.stackTraceLimit.
function untracedAfter<T>(value: T): T {
  Error.stackTraceLimit = 0;
  return value;
}

/**
 * The message of the 404 (no `allow`) or 405 a routing miss becomes, exactly as Symfony's RouterListener
 * words it: the method, the absolute URL of the raw path (no query string), and the referer or the Allow list.
 * @example routingErrorMessage(request, ['PUT', 'PATCH'])
 * // 'No route found for "GET https://app.example.test/items/1": Method Not Allowed (Allow: PUT, PATCH)'
 */
export function routingErrorMessage(request: Request, allow?: readonly string[]): string {
  const target = `No route found for "${request.method} ${request.uriForPath(request.pathInfo)}"`;
  if (allow !== undefined) return `${target}: Method Not Allowed (Allow: ${allow.join(', ')})`;
  // The referer as its bytes spell it (UTF-8), as the reference quotes the raw header. PHP's truthiness:
  // an empty header and the string "0" add nothing.
  const referer = request.header('referer');
  return referer === undefined || referer === '' || referer === '0' ? target : `${target} (from "${headerText(referer)}")`;
}

/**
 * The parameters the reference's redirectable matcher returns for a redirect it answers itself, as its
 * "Matched route" line logs them: the redirect controller, the target path, and the ports of the request
 * context (the request's own port for its scheme, the other scheme's default).
 */
function redirectParameters(request: Request, route: string, { redirect }: Pick<RedirectMatch, 'redirect'>): Record<string, unknown> {
  const secure = request.scheme === 'https';
  return {
    _controller: 'RedirectController::urlRedirectAction',
    path: redirect.path,
    permanent: true,
    scheme: redirect.scheme ?? null,
    httpPort: secure ? 80 : request.port,
    httpsPort: secure ? request.port : 443,
    _route: route,
  };
}

/**
 * Absolute Location of a router redirect, query string kept (Symfony's RedirectController::urlRedirectAction):
 * the request's own scheme and host for a trailing-slash redirect; the other scheme on its default port otherwise.
 */
export function redirectUrl(request: Request, { redirect }: Pick<RedirectMatch, 'redirect'>): string {
  const query = request.queryString === '' ? '' : `?${uriQuery(request.queryString)}`;
  if (redirect.scheme === undefined || redirect.scheme === request.scheme) return request.uriForPath(redirect.path) + query;
  return `${redirect.scheme}://${request.host}${request.origin.prefix}${redirect.path}${query}`;
}

// The query as the client sent it, but for what a URI cannot hold (RFC 3986: `"`, `<`, `>`, a backtick,
// braces, `|`, `\`, `^`, a space, and a `%` that starts no escape), percent-encoded: it goes into the
// Location header, where nothing the client chose may go unescaped. (The reference copies it raw.)
const NOT_IN_URI = /[^A-Za-z0-9\-._~:/?#[\]@!$&'()*+,;=%]|%(?![0-9A-Fa-f]{2})/g;

function uriQuery(query: string): string {
  // One byte per character: node hands the request target over as latin1.
  return query.replace(NOT_IN_URI, (character) => `%${character.charCodeAt(0).toString(16).toUpperCase().padStart(2, '0')}`);
}

function createRedirectController(url: string): Controller {
  return function urlRedirectAction(): Response {
    return Response.redirect(url, 301);
  };
}

/** A function's own name; the name an object literal lends an arrow function (`controller`) does not count. */
function controllerNameOf(controller: Controller | undefined): string | undefined {
  const name = controller?.name;
  return name === undefined || name === '' || name === 'controller' ? undefined : name;
}
