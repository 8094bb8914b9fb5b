import { rawUrlDecode } from './raw-url-decode.js';
import type { Route } from './route.js';
import { evaluateRoute, type MatchInput, type RouteVerdict } from './route-verdict.js';
import { MethodNotAllowedError, ResourceNotFoundError } from './routing-errors.js';
import type { RegexGroup } from './regex-group.js';
import { RouteIndex } from './route-index.js';
import type { TrieHit } from './segment-trie.js';

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

/** One pass, with the case Symfony throws from inside it: `/` and a table with nothing near it. */
interface ScanResult extends PassResult {
  noConfiguration?: boolean;
  /** No route was near enough the path to be tested. */
  untested?: boolean;
}

/** The request as every pass tests it: all of MatchInput but the path. */
type RequestFacts = Omit<MatchInput, 'path' | 'trimmedPath'>;

// A pass that found nothing to list shares these; only matchPass hands a result out, and it copies them.
const NONE = Object.freeze([]) as unknown as string[];
const NOTHING: ScanResult = Object.freeze({ allow: NONE, allowSchemes: NONE });
const UNTESTED: ScanResult = Object.freeze({ allow: NONE, allowSchemes: NONE, untested: true });
const NO_CONFIGURATION: ScanResult = Object.freeze({ allow: NONE, allowSchemes: NONE, noConfiguration: true });

/**
 * Matches requests against a route table compiled once (Symfony's CompiledUrlMatcher semantics): routes
 * without placeholders are found by a Map lookup, the others among the routes sharing the first path segment,
 * always in definition order, by one combined regex. `match()` throws ResourceNotFoundError or
 * MethodNotAllowedError; `lookup()` returns the miss instead, for callers that would only catch it.
 * @example
 * const matcher = new Matcher(routes);
 * matcher.match({ method: 'GET', path: '/blog', host: 'example.com', scheme: 'https' });
 * // { route: blog_index, params: {}, redirect: { path: '/blog/' } }
 */
export class Matcher {
  readonly index: RouteIndex;
  readonly redirects: boolean;

  constructor(routes: Iterable<Route>, { redirects = true }: MatcherOptions = {}) {
    this.index = new RouteIndex(routes);
    this.redirects = redirects;
  }

  get routes(): readonly Route[] {
    return this.index.routes;
  }

  /** `onPass` hears of every pass before it runs (the first, the trailing-slash retry, the scheme retry). */
  match(context: MatchContext, onPass?: (path: string, context: MatchContext) => void): MatchResult {
    const result = this.lookup(context, onPass);
    if (!('miss' in result)) return result;
    const { miss } = result;
    if (miss.kind === 'methodNotAllowed') throw new MethodNotAllowedError(miss.allow);
    throw new ResourceNotFoundError(miss.path, { noConfiguration: miss.noConfiguration });
  }

  /** match() without exceptions: a miss is returned as `{ miss }`. */
  lookup(context: MatchContext, onPass?: (path: string, context: MatchContext) => void): LookupResult {
    const request = requestFacts(context, this.redirects);
    let path = context.path;
    const first = this.#pass(path, request, context, onPass);
    if (first.match !== undefined) return first.match;
    if (first.noConfiguration === true) return { miss: { kind: 'notFound', path, noConfiguration: true } };
    if (first.allow.length > 0) return { miss: { kind: 'methodNotAllowed', allow: first.allow } };
    if (!this.redirects || (request.method !== 'GET' && request.method !== 'HEAD')) return { miss: { kind: 'notFound', path, noConfiguration: false } };

    let schemes = first.allowSchemes;
    if (schemes.length === 0) {
      const trimmed = trimTrailingSlashes(path);
      if (trimmed !== '/') {
        // The retry would test no route either (see testsTheSameRoutes): its outcome is known.
        const skip = first.untested === true && onPass === undefined && testsTheSameRoutes(path, trimmed);
        path = trimmed === path ? `${path}/` : trimmed;
        if (skip) return { miss: { kind: 'notFound', path, noConfiguration: false } };
        const retry = this.#pass(path, request, context, onPass);
        if (retry.match !== undefined) return { ...retry.match, redirect: { path } };
        if (retry.noConfiguration === true) return { miss: { kind: 'notFound', path, noConfiguration: true } };
        schemes = retry.allowSchemes;
      }
    }
    if (schemes.length > 0) {
      const scheme = schemes[0] as string;
      const other = this.#pass(path, { ...request, scheme }, { ...context, scheme }, onPass);
      if (other.match !== undefined) return { ...other.match, redirect: { path, scheme } };
      if (other.noConfiguration === true) return { miss: { kind: 'notFound', path, noConfiguration: true } };
    }
    return { miss: { kind: 'notFound', path, noConfiguration: false } };
  }

  #pass(path: string, request: RequestFacts, context: MatchContext, onPass: ((path: string, context: MatchContext) => void) | undefined): ScanResult {
    onPass?.(path, context);
    return this.#scan(path, request);
  }

  /** One pass over the table for one raw path (Symfony's doMatch). */
  matchPass(rawPath: string, context: MatchContext): PassResult {
    const result = this.#scan(rawPath, requestFacts(context, this.redirects));
    if (result.noConfiguration === true) throw new ResourceNotFoundError(rawPath, { noConfiguration: true });
    const { untested: _untested, ...pass } = result;
    return { ...pass, allow: [...result.allow], allowSchemes: [...result.allowSchemes] };
  }

  #scan(rawPath: string, request: RequestFacts): ScanResult {
    const decoded = rawUrlDecode(rawPath);
    if (decoded === undefined) return UNTESTED;
    const input = withPath(decoded, request);
    const { path } = input;
    const statics = this.index.staticRoutes(input.trimmedPath);
    // The routes tested by regex come from the trie when it can tell, else from the regex group.
    let hits: readonly TrieHit[] | undefined;
    let group: RegexGroup | undefined;
    let sourced = statics.length === 0;
    if (sourced) {
      hits = this.index.segmentMatch(path);
      // No route shares the path's first segment nor could match it another way: nothing to test (the
      // common 404 of a crawler).
      if (hits === undefined ? (group = this.index.regexGroup(path)).routes.length === 0 : hits.length === 0) return path === '/' ? NO_CONFIGURATION : UNTESTED;
    }
    // The first occurrence of each method in route order is kept (PHP's `$allow += $methods`).
    let allow: string[] | undefined;
    let allowSchemes: string[] | undefined;
    // The static routes first (they cannot conflict with an earlier dynamic route, see RouteIndex), then
    // the regex ones in definition order: the trie's hits, or each of the group's next path-regex hits.
    let nextStatic = 0;
    let nextHit = 0;
    let nextRoute = 0;
    let from = 0;
    for (;;) {
      let verdict: RouteVerdict;
      let route: Route;
      if (nextStatic < statics.length) {
        route = statics[nextStatic++] as Route;
        verdict = evaluateRoute(route, input, false);
      } else {
        if (!sourced) {
          sourced = true;
          hits = this.index.segmentMatch(path);
        }
        if (hits !== undefined) {
          const hit = hits[nextHit];
          if (hit === undefined) break;
          route = hit.routes[nextRoute++] as Route;
          if (nextRoute === hit.routes.length) {
            nextHit++;
            nextRoute = 0;
          }
          verdict = evaluateRoute(route, input, true, hit.groups);
        } else {
          group ??= this.index.regexGroup(path);
          const hit = group.next(path, from);
          if (hit === undefined) break;
          route = hit.route;
          from = hit.position + 1;
          verdict = evaluateRoute(route, input, true, hit.groups);
        }
      }
      switch (verdict.kind) {
        case 'match':
          return { match: { route, params: verdict.params }, allow: NONE, allowSchemes: NONE };
        case 'trailingSlash':
          if (verdict.stop) return NOTHING;
          break;
        case 'method':
          allow = addNew(allow, verdict.methods);
          break;
        case 'scheme':
          allowSchemes = addNew(allowSchemes, verdict.schemes);
          break;
      }
    }
    if (allow === undefined && allowSchemes === undefined) return path === '/' ? NO_CONFIGURATION : NOTHING;
    return { allow: allow ?? NONE, allowSchemes: allowSchemes ?? NONE };
  }
}

export function createMatchInput(decodedPath: string, context: MatchContext, redirects: boolean): MatchInput {
  return withPath(decodedPath, requestFacts(context, redirects));
}

/** `list` with the values it does not hold yet appended (a few methods or schemes: an array beats a Set). */
function addNew(list: string[] | undefined, values: readonly string[]): string[] {
  const out = list ?? [];
  for (const value of values) if (!out.includes(value)) out.push(value);
  return out;
}

function requestFacts(context: MatchContext, redirects: boolean): RequestFacts {
  const method = upperCased(context.method);
  const canonicalMethod = method === 'HEAD' ? 'GET' : method;
  return {
    method,
    canonicalMethod,
    host: context.host.toLowerCase(),
    scheme: context.scheme.toLowerCase(),
    supportsRedirections: redirects && canonicalMethod === 'GET',
  };
}

function withPath(decodedPath: string, request: RequestFacts): MatchInput {
  const path = decodedPath === '' ? '/' : decodedPath;
  const { method, canonicalMethod, host, scheme, supportsRedirections } = request;
  return { path, trimmedPath: trimTrailingSlashes(path), method, canonicalMethod, host, scheme, supportsRedirections };
}

/**
 * Whether a pass over `path` tests the same routes as one over the same path with its trailing slash
 * toggled (`trimmed` is the path without its trailing slashes). A pass tests the static routes of the
 * decoded path without its trailing slashes, and the regex routes of the decoded path with one trailing
 * slash left out (their regexes end with `/?`): both the same for `/a` and `/a/`, but not for `/a//`, nor
 * for `/a%2F`, whose decoded path already ends with a slash.
 */
function testsTheSameRoutes(path: string, trimmed: string): boolean {
  return path.length - trimmed.length <= 1 && !/%2f$/i.test(trimmed);
}

/** The exception match() would have thrown for a miss (the `cause` of the router listener's 404 or 405). */
export function missError(miss: RouteMiss): ResourceNotFoundError | MethodNotAllowedError {
  if (miss.kind === 'methodNotAllowed') return new MethodNotAllowedError(miss.allow);
  return new ResourceNotFoundError(miss.path, { noConfiguration: miss.noConfiguration });
}

export function isRedirect(result: MatchResult): result is RedirectMatch {
  return 'redirect' in result;
}

/** `text.toUpperCase()`, without its call for text already upper-case ASCII, as request methods nearly always are. */
function upperCased(text: string): string {
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if ((code >= 97 && code <= 122) || code > 127) return text.toUpperCase();
  }
  return text;
}

/** The path without its trailing slashes, `/` when nothing is left (`path.replace(/\/+$/, '') || '/'`). */
function trimTrailingSlashes(path: string): string {
  let end = path.length;
  while (end > 0 && path.charCodeAt(end - 1) === 47) end--;
  return end === 0 ? '/' : end === path.length ? path : path.slice(0, end);
}
