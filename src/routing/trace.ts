import { createMatchInput } from './match-input.js';
import { isRedirect, Matcher, type MatchContext } from './matcher.js';
import { rawUrlDecode } from './raw-url-decode.js';
import type { Route } from './route.js';
import { RouteCollection } from './route-collection.js';
import { evaluateRoute, type MatchInput } from './route-verdict.js';
import { isRoutingError, MethodNotAllowedException } from './routing-errors.js';

export type TraceLevel = 'match' | 'almost' | 'none';
export type TraceReason = 'match' | 'path' | 'requirement' | 'host' | 'trailingSlash' | 'scheme' | 'method';

/** What one route said about the request (Symfony's TraceableUrlMatcher levels and wording). */
export interface RouteTrace {
  name: string;
  path: string;
  level: TraceLevel;
  reason: TraceReason;
  message: string;
  methods?: readonly string[];
  schemes?: readonly string[];
  requirement?: { name: string; regex: string };
}

/** One pass of the matcher: the original path, the trailing-slash retry, or the other-scheme retry. */
export interface TraceAttempt {
  path: string;
  scheme: string;
  routes: RouteTrace[];
}

export type TraceOutcome =
  | { kind: 'match'; route: string; params: Record<string, string> }
  | { kind: 'redirect'; route: string; params: Record<string, string>; path: string; scheme?: string }
  | { kind: 'methodNotAllowed'; allow: readonly string[] }
  | { kind: 'notFound'; message: string };

export interface RoutingTrace {
  attempts: TraceAttempt[];
  outcome: TraceOutcome;
}

/**
 * Explains a match: for every pass the matcher makes, what every route (in definition order) says about
 * the request, and the outcome. Uses the matcher's own per-route test, so the two cannot disagree.
 * @example traceRoutes(matcher, { method: 'GET', path: '/blog', host: 'example.com', scheme: 'https' }).outcome
 * // { kind: 'redirect', route: 'blog_index', params: {}, path: '/blog/' }
 */
export function traceRoutes(target: Matcher | Iterable<Route>, context: MatchContext): RoutingTrace {
  const matcher = target instanceof Matcher ? target : target instanceof RouteCollection ? target.matcher() : new Matcher(target);
  const passes: { path: string; context: MatchContext }[] = [];
  let outcome: TraceOutcome;
  try {
    const result = matcher.match(context, (path, passContext) => passes.push({ path, context: passContext }));
    const base = { route: result.route.name, params: result.params };
    outcome = isRedirect(result) ? { kind: 'redirect', ...base, ...result.redirect } : { kind: 'match', ...base };
  } catch (error) {
    if (!isRoutingError(error)) throw error;
    outcome = error instanceof MethodNotAllowedException ? { kind: 'methodNotAllowed', allow: error.allow } : { kind: 'notFound', message: error.message };
  }
  const attempts = passes.map(({ path, context: passContext }) => ({
    path,
    scheme: passContext.scheme,
    routes: traceAttempt(matcher, path, passContext),
  }));
  return { attempts, outcome };
}

function traceAttempt(matcher: Matcher, rawPath: string, context: MatchContext): RouteTrace[] {
  const decoded = rawUrlDecode(rawPath);
  const input = decoded === undefined ? undefined : createMatchInput(decoded, context, matcher.redirects);
  const traces: RouteTrace[] = [];
  for (const route of matcher.routes) {
    if (input === undefined) {
      traces.push(trace(route, 'none', 'path', `Path "${rawPath}" is not valid UTF-8 once decoded`));
      continue;
    }
    const traced = traceRoute(route, input, matcher.index.isTestedByRegex(route));
    traces.push(traced);
    // The matcher stops at the first route that matches or redirects to its slash-toggled path, as
    // Symfony's TraceableUrlMatcher does: the routes after it are never asked.
    if (traced.level === 'match' || (traced.level === 'almost' && traced.reason === 'trailingSlash')) break;
  }
  return traces;
}

function traceRoute(route: Route, input: MatchInput, byRegex: boolean): RouteTrace {
  const verdict = evaluateRoute(route, input, byRegex);
  switch (verdict.kind) {
    case 'match':
      return trace(route, 'match', 'match', 'Route matches!');
    case 'path': {
      const requirement = findFailingRequirement(route, input.path);
      if (requirement === undefined) return trace(route, 'none', 'path', `Path "${route.path}" does not match`);
      return { ...trace(route, 'almost', 'requirement', `Requirement for "${requirement.name}" does not match (${requirement.regex})`), requirement };
    }
    case 'host':
      return trace(route, 'almost', 'host', `Host "${input.host}" does not match the requirement ("${route.host}")`);
    case 'trailingSlash':
      return verdict.stop
        ? trace(route, 'almost', 'trailingSlash', `Path "${route.path}" matches once the trailing slash is toggled: GET and HEAD are redirected`)
        : trace(route, 'none', 'trailingSlash', `Path "${route.path}" does not match`);
    case 'scheme':
      return {
        ...trace(route, 'almost', 'scheme', `Scheme "${input.scheme}" does not match any of the required schemes (${verdict.schemes.join(', ')}); the user will be redirected to first required scheme`),
        schemes: verdict.schemes,
      };
    case 'method':
      return {
        ...trace(route, 'almost', 'method', `Method "${input.method}" does not match any of the required methods (${verdict.methods.join(', ')})`),
        methods: verdict.methods,
      };
  }
}

/** The requirement that alone stops the path from matching (Symfony's TraceableUrlMatcher does the same). */
function findFailingRequirement(route: Route, path: string): { name: string; regex: string } | undefined {
  const entries = Object.entries(route.requirements).filter(([name]) => route.pathPattern.variables.includes(name));
  if (entries.length === 0 || !route.pathRegexWith({}).test(path)) return undefined;
  for (const [name, regex] of entries) {
    if (!route.pathRegexWith({ [name]: regex }).test(path)) return { name, regex };
  }
  return undefined;
}

function trace(route: Route, level: TraceLevel, reason: TraceReason, message: string): RouteTrace {
  return { name: route.name, path: route.path, level, reason, message };
}
