import type { Request } from '../http/request.js';
import { statusText } from '../http/status-texts.js';
import { controllerNotFoundMessage } from '../kernel/kernel.js';
import type { Matcher } from '../routing/matcher.js';
import { redirectUrl, routingErrorMessage } from '../routing/router-listener.js';
import { traceRoutes, type RoutingTrace } from '../routing/trace.js';

/** What keel would answer, as far as routing decides it. */
export type MatchVerdict =
  | { kind: 'match'; route: string; params: Record<string, string> }
  | { kind: 'redirect'; route: string; params: Record<string, string>; status: 301; reason: 'trailingSlash' | 'scheme'; location: string }
  /** A route matches but holds no controller (one kept for URL generation): the kernel answers 404. */
  | { kind: 'noController'; status: 404; route: string; params: Record<string, string>; message: string }
  | { kind: 'methodNotAllowed'; status: 405; allow: readonly string[]; message: string }
  | { kind: 'notFound'; status: 404; message: string; inner: string };

export interface MatchReport {
  request: { method: string; url: string; path: string; host: string; scheme: string };
  trace: RoutingTrace;
  verdict: MatchVerdict;
}

/**
 * Replays the router on a request: the route-by-route trace (the profiler's explanation) and the outcome
 * in the words the router listener would use, its 404/405 message and redirect Location included.
 */
export function reportMatch(matcher: Matcher, request: Request): MatchReport {
  // The same context the router listener builds.
  const context = { method: request.method, path: request.pathInfo, host: request.host, scheme: request.scheme };
  const trace = traceRoutes(matcher, context);
  return {
    request: { ...context, url: request.uri },
    trace,
    verdict: withRoute(verdictOf(request, trace), matcher, request),
  };
}

// The parameters the controller would get: the route's defaults, then the placeholders' values; and for
// a route without a controller, the kernel's 404 (the router's own redirects need none).
function withRoute(verdict: MatchVerdict, matcher: Matcher, request: Request): MatchVerdict {
  if (verdict.kind !== 'match' && verdict.kind !== 'redirect') return verdict;
  const route = matcher.index.routes.find((candidate) => candidate.name === verdict.route);
  if (route === undefined) return verdict;
  const params = { ...route.defaults, ...verdict.params };
  if (verdict.kind === 'match' && route.controller === undefined) {
    return { kind: 'noController', status: 404, route: route.name, params, message: controllerNotFoundMessage(request.pathInfo) };
  }
  return { ...verdict, params };
}

function verdictOf(request: Request, { outcome }: RoutingTrace): MatchVerdict {
  switch (outcome.kind) {
    case 'match':
      return outcome;
    case 'redirect': {
      const redirect = outcome.scheme === undefined ? { path: outcome.path } : { path: outcome.path, scheme: outcome.scheme };
      const reason = outcome.scheme === undefined || outcome.scheme === request.scheme ? 'trailingSlash' : 'scheme';
      return { kind: 'redirect', route: outcome.route, params: outcome.params, status: 301, reason, location: redirectUrl(request, { redirect }) };
    }
    case 'methodNotAllowed':
      return { kind: 'methodNotAllowed', status: 405, allow: outcome.allow, message: routingErrorMessage(request, outcome.allow) };
    case 'notFound':
      return { kind: 'notFound', status: 404, message: routingErrorMessage(request), inner: outcome.message };
  }
}

export function statusLine(status: number): string {
  return `${status} ${statusText(status)}`.trimEnd();
}
