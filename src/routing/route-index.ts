import type { Route } from './route.js';
import { RegexGroup } from './regex-group.js';
import { SegmentSplit } from './segment-split.js';
import { SegmentTrie, staysInSegment, type TrieHit } from './segment-trie.js';
import { withoutTrailingSlashes } from '../internal/trailing-slashes.js';

/**
 * The route table arranged for lookup, built once (Symfony's CompiledUrlMatcherDumper::groupStaticRoutes):
 * - routes without placeholders go into a Map keyed by their path without trailing slash, so their lookup
 *   costs the same with ten routes or ten thousand;
 * - the others, and any static route that an earlier dynamic route could also match (so that definition
 *   order still decides), are tested by regex; they are bucketed by the first path segment when it is
 *   literal (`/blog/{slug}` → `blog`), and a request tests only its segment's bucket plus the routes whose
 *   first segment holds a placeholder, merged back into definition order (merged once, here). Among
 *   those, a route whose placeholders can neither hold nor drop a `/` only matches paths with as many
 *   segments as its own, so a request tests only the routes of its segment count (and the others), all
 *   together by one RegexGroup; a large such group is split once more by the literal text of a further
 *   segment (see SegmentSplit);
 * - those made of whole segments, each literal or a placeholder, are also kept in a SegmentTrie, which
 *   finds them without a regex; paths that a route of any other shape could match are left to the regex
 *   groups.
 */
export class RouteIndex {
  readonly routes: readonly Route[];
  #static = new Map<string, Route[]>();
  /** The length of the longest key of #static. */
  #longestStatic = -1;
  #buckets = new Map<string, Route[]>();
  #wildcard: Route[] = [];
  #position = new Map<Route, number>();
  #byRegex = new Set<Route>();
  #merged = new Map<string, Route[]>();
  /** Per bucket key (undefined: the wildcard routes only), per segment count: the group to test, or its split. */
  #groups = new Map<string | undefined, Map<number, RegexGroup | SegmentSplit>>();
  #segments = new Map<Route, number | undefined>();
  #trie = new SegmentTrie();
  #maxSegments = 0;
  static readonly #noRoutes: readonly Route[] = [];

  constructor(routes: Iterable<Route>) {
    this.routes = [...routes];
    this.routes.forEach((route, i) => this.#position.set(route, i));
    for (const route of this.routes) {
      if (route.isStatic && !this.#shadowedByDynamic(route)) {
        const list = this.#static.get(route.staticUrl) ?? [];
        list.push(route);
        this.#static.set(route.staticUrl, list);
        this.#longestStatic = Math.max(this.#longestStatic, route.staticUrl.length);
        continue;
      }
      this.#byRegex.add(route);
      const key = bucketKey(route);
      if (!this.#trie.add(route, this.#at(route))) this.#trie.leaveOut(key);
      if (key === undefined) this.#wildcard.push(route);
      else {
        const bucket = this.#buckets.get(key);
        if (bucket === undefined) this.#buckets.set(key, [route]);
        else bucket.push(route);
      }
    }
    for (const [key, bucket] of this.#buckets) this.#merged.set(key, this.#merge(bucket, this.#wildcard));
    for (const route of this.#byRegex) {
      const count = segmentCount(route);
      this.#segments.set(route, count);
      if (count !== undefined && count > this.#maxSegments) this.#maxSegments = count;
    }
  }

  /** Routes found in the static Map for a path without trailing slashes: they are tested first. */
  staticRoutes(trimmedPath: string): readonly Route[] {
    // A path longer than every static route is not looked up: the lookup would hash it all, for nothing.
    if (trimmedPath.length > this.#longestStatic) return RouteIndex.#noRoutes;
    return this.#static.get(trimmedPath) ?? RouteIndex.#noRoutes;
  }

  /**
   * The routes tested by regex whose path regex matches a decoded path, in definition order, found
   * without a regex; undefined when only regexGroup() can tell.
   */
  segmentMatch(path: string): readonly TrieHit[] | undefined {
    return this.#trie.match(path);
  }

  /** The routes tested by regex for a decoded path, in definition order: its first segment's bucket and the wildcard routes. */
  regexGroup(path: string): RegexGroup {
    const slash = path.indexOf('/', 1);
    let key: string | undefined = slash === -1 ? path.slice(1) : path.slice(1, slash);
    let routes = this.#merged.get(key);
    if (routes === undefined) {
      key = undefined;
      routes = this.#wildcard;
    }
    // Beyond the longest fixed route only the others can match: one group for every such count.
    let count = pathSegments(path);
    if (count > this.#maxSegments) count = -1;
    let byCount = this.#groups.get(key);
    if (byCount === undefined) this.#groups.set(key, (byCount = new Map()));
    let group = byCount.get(count);
    if (group === undefined) {
      const candidates = routes.filter((route) => {
        const segments = this.#segments.get(route);
        return segments === undefined || segments === count;
      });
      group = SegmentSplit.create(candidates, (route) => this.#literalSegments(route)) ?? new RegexGroup(candidates);
      byCount.set(count, group);
    }
    return group instanceof SegmentSplit ? group.groupFor(path) : group;
  }

  /** Each `/`-separated segment of a route with fixed segments: its text when literal, else undefined. */
  #literalSegments(route: Route): (string | undefined)[] | undefined {
    if (this.#segments.get(route) === undefined) return undefined;
    const path = route.hasTrailingSlash ? route.path.slice(0, -1) : route.path;
    return path.split('/').map((segment) => (segment.includes('{') ? undefined : segment));
  }

  /** True when the route is tested by regex rather than found in the static Map. */
  isTestedByRegex(route: Route): boolean {
    return this.#byRegex.has(route);
  }

  #merge(bucket: readonly Route[], wildcard: readonly Route[]): Route[] {
    const merged: Route[] = [];
    let i = 0;
    let j = 0;
    while (i < bucket.length || j < wildcard.length) {
      const a = bucket[i];
      const b = wildcard[j];
      if (b === undefined || (a !== undefined && this.#at(a) < this.#at(b))) {
        merged.push(a as Route);
        i++;
      } else {
        merged.push(b);
        j++;
      }
    }
    return merged;
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
      const prefix = withoutTrailingSlashes(dynamic.pathPattern.staticPrefix);
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

/** The `/` of a decoded path, one trailing `/` left out (the route regexes allow it). */
function pathSegments(path: string): number {
  let count = 0;
  for (let i = 0; i < path.length; i++) if (path.charCodeAt(i) === 47) count++;
  return path.length > 1 && path.charCodeAt(path.length - 1) === 47 ? count - 1 : count;
}

/**
 * How many `/` every path the route matches has (pathSegments counts the same way), or undefined when
 * that varies: an optional placeholder, a requirement that could match a `/` or nothing at all, a
 * literal `/` before the optional trailing one.
 */
function segmentCount(route: Route): number | undefined {
  const pattern = route.pathPattern;
  if (pattern.firstOptional !== Infinity) return undefined;
  for (const token of pattern.tokens) {
    if (token.kind !== 'variable') continue;
    if (!staysInSegment(token.regex)) return undefined;
  }
  const path = route.hasTrailingSlash ? route.path.slice(0, -1) : route.path;
  if (path.endsWith('/') && path !== '/') return undefined;
  let count = 0;
  for (let i = 0; i < path.length; i++) if (path.charCodeAt(i) === 47) count++;
  return count;
}
