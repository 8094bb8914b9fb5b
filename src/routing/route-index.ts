import type { Route } from './route.js';

/**
 * The route table arranged for lookup, built once (Symfony's CompiledUrlMatcherDumper::groupStaticRoutes):
 * - routes without placeholders go into a Map keyed by their path without trailing slash, so their lookup
 *   costs the same with ten routes or ten thousand;
 * - the others, and any static route that an earlier dynamic route could also match (so that definition
 *   order still decides), are tested by regex; they are bucketed by the first path segment when it is
 *   literal (`/blog/{slug}` → `blog`), and a request tests only its segment's bucket plus the routes whose
 *   first segment holds a placeholder, merged back into definition order.
 */
export class RouteIndex {
  readonly routes: readonly Route[];
  #static = new Map<string, Route[]>();
  #buckets = new Map<string, Route[]>();
  #wildcard: Route[] = [];
  #position = new Map<Route, number>();
  #byRegex = new Set<Route>();

  constructor(routes: Iterable<Route>) {
    this.routes = [...routes];
    this.routes.forEach((route, i) => this.#position.set(route, i));
    for (const route of this.routes) {
      if (route.isStatic && !this.#shadowedByDynamic(route)) {
        const list = this.#static.get(route.staticUrl) ?? [];
        list.push(route);
        this.#static.set(route.staticUrl, list);
        continue;
      }
      this.#byRegex.add(route);
      const key = bucketKey(route);
      if (key === undefined) this.#wildcard.push(route);
      else {
        const bucket = this.#buckets.get(key);
        if (bucket === undefined) this.#buckets.set(key, [route]);
        else bucket.push(route);
      }
    }
  }

  /** True when the route is tested by regex rather than found in the static Map. */
  isTestedByRegex(route: Route): boolean {
    return this.#byRegex.has(route);
  }

  /**
   * Routes worth testing for a decoded path, each with how to test it: the static ones first (they cannot
   * conflict with an earlier dynamic route, see the constructor), then the regex ones in definition order.
   */
  *candidates(path: string, trimmedPath: string): Generator<[Route, boolean]> {
    for (const route of this.#static.get(trimmedPath) ?? []) yield [route, false];
    const slash = path.indexOf('/', 1);
    const bucket = this.#buckets.get(slash === -1 ? path.slice(1) : path.slice(1, slash)) ?? [];
    const wildcard = this.#wildcard;
    let i = 0;
    let j = 0;
    while (i < bucket.length || j < wildcard.length) {
      const a = bucket[i];
      const b = wildcard[j];
      if (b === undefined || (a !== undefined && this.#at(a) < this.#at(b))) {
        yield [a as Route, true];
        i++;
      } else {
        yield [b, true];
        j++;
      }
    }
  }

  #at(route: Route): number {
    return this.#position.get(route) ?? 0;
  }

  /** Symfony moves a static route among the dynamic ones when an earlier dynamic route matches its path. */
  #shadowedByDynamic(route: Route): boolean {
    const url = route.staticUrl;
    const slash = url.indexOf('/', 1);
    const earlier = [...(this.#buckets.get(slash === -1 ? url.slice(1) : url.slice(1, slash)) ?? []), ...this.#wildcard];
    const host = route.hostPattern?.variables.length ? '' : route.host;
    return earlier.some((dynamic) => {
      const prefix = dynamic.pathPattern.staticPrefix.replace(/\/+$/, '');
      if (prefix !== '' && !url.startsWith(prefix)) return false;
      if (!dynamic.pathRegex.test(url) && !dynamic.pathRegex.test(`${url}/`)) return false;
      return host === '' || dynamic.hostRegex === undefined || dynamic.hostRegex.test(host);
    });
  }
}

/** The literal first path segment every path matching the route starts with, or undefined. */
function bucketKey(route: Route): string | undefined {
  const brace = route.path.indexOf('{');
  const literal = brace === -1 ? route.path : route.path.slice(0, brace);
  const slash = literal.indexOf('/', 1);
  if (slash !== -1) return literal.slice(1, slash);
  return route.isStatic ? literal.slice(1) : undefined;
}
