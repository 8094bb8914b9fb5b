import { rawUrlDecode } from './raw-url-decode.js';
import type { Route } from './route.js';
import { evaluateRoute, type MatchInput } from './route-verdict.js';
import { MethodNotAllowedError, ResourceNotFoundError } from './routing-errors.js';
import { RouteIndex } from './route-index.js';

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

export interface MatcherOptions {
  /**
   * Redirect GET and HEAD requests whose path only differs by a trailing slash, or whose scheme is not the
   * one a route requires (Symfony's RedirectableUrlMatcher, what a full-stack app uses). Default true.
   */
  redirects?: boolean;
}

/**
 * Matches requests against a route table compiled once (Symfony's CompiledUrlMatcher semantics): routes
 * without placeholders are found by a Map lookup, the others among the routes sharing the first path segment,
 * always in definition order. Throws ResourceNotFoundError or MethodNotAllowedError.
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
    const method = context.method.toUpperCase();
    let path = context.path;
    const first = this.#pass(path, context, onPass);
    if (first.match !== undefined) return first.match;
    if (first.allow.length > 0) throw new MethodNotAllowedError(first.allow);
    if (!this.redirects || (method !== 'GET' && method !== 'HEAD')) throw new ResourceNotFoundError(path);

    let schemes = first.allowSchemes;
    if (schemes.length === 0) {
      const trimmed = path.replace(/\/+$/, '') || '/';
      if (trimmed !== '/') {
        path = trimmed === path ? `${path}/` : trimmed;
        const retry = this.#pass(path, context, onPass);
        if (retry.match !== undefined) return { ...retry.match, redirect: { path } };
        schemes = retry.allowSchemes;
      }
    }
    if (schemes.length > 0) {
      const scheme = schemes[0] as string;
      const other = this.#pass(path, { ...context, scheme }, onPass);
      if (other.match !== undefined) return { ...other.match, redirect: { path, scheme } };
    }
    throw new ResourceNotFoundError(path);
  }

  #pass(path: string, context: MatchContext, onPass: ((path: string, context: MatchContext) => void) | undefined): PassResult {
    onPass?.(path, context);
    return this.matchPass(path, context);
  }

  /** One pass over the table for one raw path (Symfony's doMatch). */
  matchPass(rawPath: string, context: MatchContext): PassResult {
    const decoded = rawUrlDecode(rawPath);
    if (decoded === undefined) return { allow: [], allowSchemes: [] };
    const input = createMatchInput(decoded, context, this.redirects);
    // Sets keep the first occurrence of each method in route order (PHP's `$allow += $methods`).
    let allow: Set<string> | undefined;
    let allowSchemes: Set<string> | undefined;
    for (const [route, byRegex] of this.index.candidates(input.path, input.trimmedPath)) {
      const verdict = evaluateRoute(route, input, byRegex);
      switch (verdict.kind) {
        case 'match':
          return { match: { route, params: verdict.params }, allow: [], allowSchemes: [] };
        case 'trailingSlash':
          if (verdict.stop) return { allow: [], allowSchemes: [] };
          break;
        case 'method':
          allow ??= new Set();
          for (const m of verdict.methods) allow.add(m);
          break;
        case 'scheme':
          allowSchemes ??= new Set();
          for (const s of verdict.schemes) allowSchemes.add(s);
          break;
      }
    }
    if (input.path === '/' && allow === undefined && allowSchemes === undefined) {
      throw new ResourceNotFoundError(rawPath, { noConfiguration: true });
    }
    return { allow: allow === undefined ? [] : [...allow], allowSchemes: allowSchemes === undefined ? [] : [...allowSchemes] };
  }
}

export function createMatchInput(decodedPath: string, context: MatchContext, redirects: boolean): MatchInput {
  const path = decodedPath === '' ? '/' : decodedPath;
  const method = context.method.toUpperCase();
  const canonicalMethod = method === 'HEAD' ? 'GET' : method;
  return {
    path,
    trimmedPath: path.replace(/\/+$/, '') || '/',
    method,
    canonicalMethod,
    host: context.host.toLowerCase(),
    scheme: context.scheme.toLowerCase(),
    supportsRedirections: redirects && canonicalMethod === 'GET',
  };
}

export function isRedirect(result: MatchResult): result is RedirectMatch {
  return 'redirect' in result;
}
