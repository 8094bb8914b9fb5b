import { collectParams } from './params-collector.js';
import type { Route } from './route.js';

/** One matching pass over the table: the decoded path and the request facts every route is tested against. */
export interface MatchInput {
  /** Decoded path (`/` when empty). */
  path: string;
  /** The path without trailing slashes (`/` when nothing is left). */
  trimmedPath: string;
  method: string;
  /** GET for HEAD, the method otherwise. */
  canonicalMethod: string;
  /** Lower-cased, like the scheme, wherever a route of the table compares it (see createRequestFacts). */
  host: string;
  scheme: string;
  /** GET or HEAD on a redirecting matcher: a trailing-slash mismatch stops the pass so the retry can redirect. */
  supportsRedirections: boolean;
}

/** What one route says about one request (the shared core of the matcher and of the trace). */
export type RouteVerdict =
  | { kind: 'match'; params: Record<string, string> }
  | { kind: 'path' }
  | { kind: 'host' }
  /** The path matches but for its trailing slash; `stop`: the pass ends here with no match and no Allow list. */
  | { kind: 'trailingSlash'; stop: boolean }
  | { kind: 'scheme'; schemes: readonly string[] }
  | { kind: 'method'; methods: readonly string[] };

// The verdicts that carry nothing of the route or the request are shared.
const PATH: RouteVerdict = Object.freeze({ kind: 'path' });
const HOST: RouteVerdict = Object.freeze({ kind: 'host' });
const TRAILING_SLASH_STOP: RouteVerdict = Object.freeze({ kind: 'trailingSlash', stop: true });
const TRAILING_SLASH: RouteVerdict = Object.freeze({ kind: 'trailingSlash', stop: false });

/**
 * Tests one route, in Symfony's order (CompiledUrlMatcherTrait::doMatch): path, host, trailing slash,
 * scheme, method. `byRegex` is false for routes the matcher found in its static index (compared by path
 * without trailing slashes, so `/blog//` reaches `/blog/`), true for the others (their regex allows one
 * optional trailing slash). `found`: what the route's path regex captured on the path, when the caller ran it.
 */
export function evaluateRoute(route: Route, input: MatchInput, byRegex: boolean, found?: ArrayLike<string | undefined>): RouteVerdict {
  const { path, trimmedPath } = input;
  let groups: ArrayLike<string | undefined> | null = null;
  if (byRegex) {
    groups = found ?? route.pathRegex.exec(path);
    if (groups === null) return PATH;
  } else if (route.staticUrl !== trimmedPath) {
    return PATH;
  }

  let hostGroups: RegExpExecArray | null = null;
  if (route.hostRegex !== undefined) {
    hostGroups = route.hostRegex.exec(input.host);
    if (hostGroups === null) return HOST;
  }

  let hasTrailingVar = route.hasTrailingVar && trimmedPath !== path;
  if (hasTrailingVar && groups !== null) {
    const vars = route.pathPattern.variables;
    const last = groups[vars.length];
    if (route.hasTrailingSlash || last === undefined || (last !== '' && !last.endsWith('/'))) {
      const trimmedGroups = route.pathRegex.exec(trimmedPath);
      if (trimmedGroups !== null) {
        if (route.hasTrailingSlash) groups = trimmedGroups;
        else hasTrailingVar = false;
      }
    }
  }
  if (path !== '/' && !hasTrailingVar && route.hasTrailingSlash === (trimmedPath === path)) {
    const allowsGet = route.methods.length === 0 || route.methods.includes('GET');
    return input.supportsRedirections && allowsGet ? TRAILING_SLASH_STOP : TRAILING_SLASH;
  }
  if (route.schemes.length > 0 && !route.schemes.includes(input.scheme)) return { kind: 'scheme', schemes: route.schemes };
  if (!acceptsMethod(route, input)) return { kind: 'method', methods: route.methods };
  // The values are only wanted on a match: host placeholders first, then the path's.
  const params: Record<string, string> = {};
  if (hostGroups !== null) collectParams(params, route.hostPattern?.variables ?? [], hostGroups);
  if (groups !== null) route.collectPathParams(params, groups);
  return { kind: 'match', params };
}

/** Whether the route takes the request's method (any, when it names none; HEAD where it takes GET). */
export function acceptsMethod(route: Route, input: MatchInput): boolean {
  const { methods } = route;
  if (methods.length === 0) return true;
  // A loop of `===` rather than includes(): a route has a method or two, and this runs for every candidate.
  for (let i = 0; i < methods.length; i++) if (methods[i] === input.canonicalMethod || methods[i] === input.method) return true;
  return false;
}
