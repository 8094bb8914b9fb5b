import { createRequestFacts, trimTrailingSlashes, type RequestFacts, type TableRequirements } from './match-input.js';
import type { Route } from './route.js';
import { MethodNotAllowedException, ResourceNotFoundException } from './routing-errors.js';
import { RouteIndex } from './route-index.js';
import { scanRoutes, type PassMiss } from './route-scan.js';

/** What the matcher needs to know about a request. */
export interface MatchContext {
  method: string;
  /** Raw path, still percent-encoded, without the query string. */
  path: string;
  host: string;
  scheme: string;
}

export interface RouteMatch {
  route: Route;
  /** Placeholder values found in the path and host (defaults not merged in). */
  params: Record<string, string>;
}

/** The request should be sent elsewhere: the path with its trailing slash toggled, or another scheme. */
export interface RedirectMatch extends RouteMatch {
  redirect: { path: string; scheme?: string };
}

export type MatchResult = RouteMatch | RedirectMatch;

/** Outcome of one pass over the table (Symfony's doMatch). */
export interface PassResult {
  match?: RouteMatch;
  /** Methods of the routes that matched all but the method, route order, first occurrence kept. */
  allow: string[];
  /** Schemes of the routes that matched all but the scheme. */
  allowSchemes: string[];
}

/**
 * Why a lookup found nothing: `notFound` (Symfony's ResourceNotFoundException, `path` the raw path tried
 * last) or `methodNotAllowed` (a route matches the path but not the method).
 */
export type RouteMiss =
  | { kind: 'notFound'; path: string; noConfiguration: boolean }
  | { kind: 'methodNotAllowed'; allow: readonly string[] };

export type LookupResult = MatchResult | { miss: RouteMiss };

export interface MatcherOptions {
  /**
   * Redirect GET and HEAD requests whose path only differs by a trailing slash, or whose scheme is not the
   * one a route requires (Symfony's RedirectableUrlMatcher, what a full-stack app uses). Default true.
   */
  redirects?: boolean;
}

/**
 * Matches requests against a route table compiled once (Symfony's CompiledUrlMatcher semantics): routes
 * without placeholders are found by a Map lookup, the others, always in definition order, by walking a
 * segment trie, or among the routes sharing the first path segment by one combined regex (see RouteIndex).
 * `match()` throws ResourceNotFoundException or
 * MethodNotAllowedException; `lookup()` returns the miss instead, for callers that would only catch it.
 * @example
 * const matcher = new Matcher(routes);
 * matcher.match({ method: 'GET', path: '/blog', host: 'example.com', scheme: 'https' });
 * // { route: blog_index, params: {}, redirect: { path: '/blog/' } }
 */
export class Matcher {
  readonly index: RouteIndex;
  readonly redirects: boolean;

  readonly #requirements: TableRequirements;

  constructor(routes: Iterable<Route>, { redirects = true }: MatcherOptions = {}) {
    this.index = new RouteIndex(routes);
    this.redirects = redirects;
    this.#requirements = {
      host: this.index.routes.some((route) => route.hostRegex !== undefined),
      scheme: this.index.routes.some((route) => route.schemes.length > 0),
    };
  }

  get routes(): readonly Route[] {
    return this.index.routes;
  }

  /** `onPass` hears of every pass before it runs (the first, the trailing-slash retry, the scheme retry). */
  match(context: MatchContext, onPass?: (path: string, context: MatchContext) => void): MatchResult {
    const result = this.lookup(context, onPass);
    if (!('miss' in result)) return result;
    throw missError(result.miss);
  }

  /** match() without exceptions: a miss is returned as `{ miss }`. */
  lookup(context: MatchContext, onPass?: (path: string, context: MatchContext) => void): LookupResult {
    const request = createRequestFacts(context, this.redirects, this.#requirements);
    let path = context.path;
    const first = this.#pass(path, request, context, onPass);
    if (!isMiss(first)) return first;
    if (first.noConfiguration === true) return notFound(path, true);
    if (first.allow.length > 0) return { miss: { kind: 'methodNotAllowed', allow: first.allow } };
    if (!this.redirects || (request.method !== 'GET' && request.method !== 'HEAD')) return notFound(path, false);

    let schemes = first.allowSchemes;
    if (schemes.length === 0) {
      const trimmed = trimTrailingSlashes(path);
      if (trimmed !== '/') {
        // The retry would test no route either (see testsTheSameRoutes): its outcome is known.
        const skip = first.untested === true && onPass === undefined && testsTheSameRoutes(path, trimmed);
        path = trimmed === path ? `${path}/` : trimmed;
        if (skip) return notFound(path, false);
        const retry = this.#pass(path, request, context, onPass);
        if (!isMiss(retry)) return { ...retry, redirect: { path } };
        if (retry.noConfiguration === true) return notFound(path, true);
        schemes = retry.allowSchemes;
      }
    }
    if (schemes.length > 0) {
      const scheme = schemes[0] as string;
      const other = this.#pass(path, { ...request, scheme }, { ...context, scheme }, onPass);
      if (!isMiss(other)) return { ...other, redirect: { path, scheme } };
      if (other.noConfiguration === true) return notFound(path, true);
    }
    return notFound(path, false);
  }

  #pass(path: string, request: RequestFacts, context: MatchContext, onPass: ((path: string, context: MatchContext) => void) | undefined): RouteMatch | PassMiss {
    onPass?.(path, context);
    return scanRoutes(this.index, path, request);
  }

  /** One pass over the table for one raw path (Symfony's doMatch). */
  matchPass(rawPath: string, context: MatchContext): PassResult {
    const result = scanRoutes(this.index, rawPath, createRequestFacts(context, this.redirects, this.#requirements));
    if (!isMiss(result)) return { match: result, allow: [], allowSchemes: [] };
    if (result.noConfiguration === true) throw new ResourceNotFoundException(rawPath, { noConfiguration: true });
    return { allow: [...result.allow], allowSchemes: [...result.allowSchemes] };
  }
}

function notFound(path: string, noConfiguration: boolean): LookupResult {
  return { miss: { kind: 'notFound', path, noConfiguration } };
}

function isMiss(result: RouteMatch | PassMiss): result is PassMiss {
  return 'allow' in result;
}

/**
 * Whether a pass over `path` tests the same routes as one over the same path with its trailing slash
 * toggled (`trimmed` is the path without its trailing slashes). A pass tests the static routes of the
 * decoded path without its trailing slashes, and the regex routes of the decoded path with one trailing
 * slash left out (their regexes end with `/?`): both the same for `/a` and `/a/`, but not for `/a//`, nor
 * for `/a%2F`, whose decoded path already ends with a slash.
 */
function testsTheSameRoutes(path: string, trimmed: string): boolean {
  const end = trimmed.length;
  // `%2F` or `%2f` at the end, read by char code: a regex test would cost as much as the rest of a miss.
  const escapedSlash = end >= 3 && trimmed.charCodeAt(end - 3) === 37 && trimmed.charCodeAt(end - 2) === 50 && (trimmed.charCodeAt(end - 1) | 32) === 102;
  return path.length - end <= 1 && !escapedSlash;
}

/** The exception match() would have thrown for a miss (the `cause` of the router listener's 404 or 405). */
export function missError(miss: RouteMiss): ResourceNotFoundException | MethodNotAllowedException {
  if (miss.kind === 'methodNotAllowed') return new MethodNotAllowedException(miss.allow);
  return new ResourceNotFoundException(miss.path, { noConfiguration: miss.noConfiguration });
}

export function isRedirect(result: MatchResult): result is RedirectMatch {
  return 'redirect' in result;
}
