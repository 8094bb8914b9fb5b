import { withPath, type RequestFacts } from './match-input.js';
import type { RouteMatch } from './matcher.js';
import { rawUrlDecode } from './raw-url-decode.js';
import type { RegexGroup } from './regex-group.js';
import type { Route } from './route.js';
import type { RouteIndex } from './route-index.js';
import { acceptsMethod, evaluateRoute } from './route-verdict.js';
import type { TrieHit } from './segment-trie.js';

/** A pass that found no route: what the routes that matched all but the method or the scheme said. */
export interface PassMiss {
  /** Methods of the routes that matched all but the method, route order, first occurrence kept. */
  allow: string[];
  /** Schemes of the routes that matched all but the scheme. */
  allowSchemes: string[];
  /** The case Symfony throws from inside a pass: `/` and a table with nothing near it. */
  noConfiguration?: boolean;
  /** No route was near enough the path to be tested. */
  untested?: boolean;
}

// The misses with nothing to list are shared; a caller that hands one out copies its lists.
const NONE = Object.freeze([]) as unknown as string[];
const NOTHING: PassMiss = Object.freeze({ allow: NONE, allowSchemes: NONE });
const UNTESTED: PassMiss = Object.freeze({ allow: NONE, allowSchemes: NONE, untested: true });
const NO_CONFIGURATION: PassMiss = Object.freeze({ allow: NONE, allowSchemes: NONE, noConfiguration: true });

/**
 * One pass over the table for one raw path (Symfony's doMatch): the first route that matches the path and
 * every requirement of the request. The static routes are tested first (they cannot conflict with an
 * earlier dynamic route, see RouteIndex), then the ones tested by regex, in definition order: the trie's
 * hits, or else the regex group's, hit after hit; those are looked for only once the static ones are done.
 * Routes that refuse the request's method are only looked at when nothing else decided (see below).
 */
export function scanRoutes(index: RouteIndex, rawPath: string, request: RequestFacts): RouteMatch | PassMiss {
  const decoded = rawUrlDecode(rawPath);
  if (decoded === undefined) return UNTESTED;
  const input = withPath(decoded, request);
  const { path } = input;
  const statics = index.staticRoutes(input.trimmedPath);
  let hits: readonly TrieHit[] | undefined;
  let group: RegexGroup | undefined;
  let sourced = statics.length === 0;
  if (sourced) {
    hits = index.segmentMatch(path);
    // No route shares the path's first segment nor could match it another way (the common 404 of a crawler).
    if (hits === undefined ? (group = index.regexGroup(path)).routes.length === 0 : hits.length === 0) return path === '/' ? NO_CONFIGURATION : UNTESTED;
  }
  let allow: string[] | undefined;
  let allowSchemes: string[] | undefined;
  // Only a match, or a route that stops the pass for its trailing slash, decides a pass, and neither comes
  // from a route that refuses the request's method (a route that takes GET takes HEAD too). Those routes
  // are skipped, and all are tested again, for the Allow list, only when nothing decided.
  let skipped = false;
  for (let collecting = false; ; collecting = true) {
    let nextStatic = 0;
    let nextHit = 0;
    let nextRoute = 0;
    let from = 0;
    for (;;) {
      let route: Route;
      let groups: ArrayLike<string | undefined> | undefined;
      if (nextStatic < statics.length) {
        route = statics[nextStatic++] as Route;
      } else {
        if (!sourced) {
          sourced = true;
          hits = index.segmentMatch(path);
        }
        if (hits !== undefined) {
          const hit = hits[nextHit];
          if (hit === undefined) break;
          route = hit.routes[nextRoute++] as Route;
          groups = hit.groups;
          if (nextRoute === hit.routes.length) {
            nextHit++;
            nextRoute = 0;
          }
        } else {
          group ??= index.regexGroup(path);
          const hit = group.next(path, from);
          if (hit === undefined) break;
          route = hit.route;
          groups = hit.groups;
          from = hit.position + 1;
        }
      }
      if (!collecting && !acceptsMethod(route, input)) {
        skipped = true;
        continue;
      }
      const verdict = evaluateRoute(route, input, groups !== undefined, groups);
      switch (verdict.kind) {
        case 'match':
          return { route, params: verdict.params };
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
    if (!skipped || collecting) break;
    allow = undefined;
    allowSchemes = undefined;
  }
  if (allow === undefined && allowSchemes === undefined) return path === '/' ? NO_CONFIGURATION : NOTHING;
  return { allow: allow ?? NONE, allowSchemes: allowSchemes ?? NONE };
}

/** `list` with the values it does not hold yet appended (the first occurrence in route order is kept, as PHP's `$allow += $methods`). */
function addNew(list: string[] | undefined, values: readonly string[]): string[] {
  const out = list ?? [];
  for (const value of values) if (!out.includes(value)) out.push(value);
  return out;
}
