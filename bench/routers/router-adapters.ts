import FindMyWay from 'find-my-way';
import type { Router as HonoRouter } from 'hono/router';
import { LinearRouter } from 'hono/router/linear-router';
import { RegExpRouter } from 'hono/router/reg-exp-router';
import { SmartRouter } from 'hono/router/smart-router';
import { TrieRouter } from 'hono/router/trie-router';
import { Matcher } from '../../src/routing/matcher.js';
import { RouteCollection } from '../../src/routing/route-collection.js';
import type { GithubRoute } from '../fixtures/github-routes.js';

/** A router under test: built once from a table, then asked which route (by `METHOD path` key) a request hits. */
export type Lookup = (method: string, path: string) => string | undefined;

export const ROUTER_NAMES = ['keel', 'find-my-way', 'hono-regexp', 'hono-smart', 'hono-trie', 'hono-linear'] as const;
export type RouterName = (typeof ROUTER_NAMES)[number];

const keyOf = (route: GithubRoute): string => `${route.method} ${route.path}`;
const colonPath = (path: string): string => path.replace(/\{(\w+)\}/g, ':$1');

export function buildRouter(name: RouterName, routes: readonly GithubRoute[]): Lookup {
  switch (name) {
    case 'keel':
      return buildKeel(routes);
    case 'find-my-way':
      return buildFindMyWay(routes);
    case 'hono-regexp':
      return buildHono(new RegExpRouter<string>(), routes);
    // What `new Hono()` uses: RegExpRouter when it accepts the table, TrieRouter otherwise.
    case 'hono-smart':
      return buildHono(new SmartRouter<string>({ routers: [new RegExpRouter(), new TrieRouter()] }), routes);
    case 'hono-trie':
      return buildHono(new TrieRouter<string>(), routes);
    case 'hono-linear':
      return buildHono(new LinearRouter<string>(), routes);
  }
}

/** keel's Matcher as the router listener calls it: lookup(), which returns a miss instead of throwing it. */
function buildKeel(routes: readonly GithubRoute[]): Lookup {
  const collection = new RouteCollection().addAll(routes.map((route) => ({ name: keyOf(route), path: route.path, methods: [route.method] })));
  const matcher = new Matcher(collection);
  return (method, path) => {
    const result = matcher.lookup({ method, path, host: 'api.github.com', scheme: 'https' });
    return 'miss' in result ? undefined : result.route.name;
  };
}

function buildFindMyWay(routes: readonly GithubRoute[]): Lookup {
  const router = FindMyWay();
  for (const route of routes) router.on(route.method, colonPath(route.path), () => {}, { key: keyOf(route) });
  return (method, path) => (router.find(method as 'GET', path)?.store as { key: string } | undefined)?.key;
}

/** Hono's routers return every handler whose pattern matches, in registration order; the first one wins. */
function buildHono(router: HonoRouter<string>, routes: readonly GithubRoute[]): Lookup {
  for (const route of routes) router.add(route.method, colonPath(route.path), keyOf(route));
  // RegExpRouter and SmartRouter compile on the first match: an unsupported table fails here, at build time.
  router.match('GET', '/');
  return (method, path) => router.match(method, path)[0][0]?.[0];
}
