import { GITHUB_ROUTES, MISS_LOOKUPS, PARAM_LOOKUPS, STATIC_LOOKUPS, type GithubRoute, type Lookup } from '../fixtures/github-routes.js';

export type TableName = 'github' | 'static-200' | 'static-5000';
export type LookupSetName = 'static' | 'param' | 'miss' | 'mixed';

/**
 * The route tables: GitHub's API, and two tables of only static routes (GitHub's own plus generated
 * catalogue pages) to see whether a static lookup costs more when the table is 25 times larger.
 */
export function routeTable(name: TableName): GithubRoute[] {
  if (name === 'github') return GITHUB_ROUTES;
  const size = name === 'static-200' ? 200 : 5000;
  const statics = GITHUB_ROUTES.filter((route) => !route.path.includes('{'));
  const generated: GithubRoute[] = [];
  for (let i = 0; statics.length + generated.length < size; i++) {
    generated.push({ method: 'GET', path: `/catalog/section-${i % 40}/item-${i}` });
  }
  return [...statics, ...generated];
}

/** The lookups of each set; `mixed` interleaves all of them in a fixed pseudo-random order. */
export function lookupSet(name: LookupSetName): Lookup[] {
  switch (name) {
    case 'static':
      return STATIC_LOOKUPS;
    case 'param':
      return PARAM_LOOKUPS;
    case 'miss':
      return MISS_LOOKUPS;
    case 'mixed':
      return shuffle([...STATIC_LOOKUPS, ...PARAM_LOOKUPS, ...MISS_LOOKUPS]);
  }
}

/** Which sets make sense on which table: the static-only tables have no parameterised routes. */
export function setsFor(table: TableName): LookupSetName[] {
  return table === 'github' ? ['static', 'param', 'miss', 'mixed'] : ['static', 'miss'];
}

// A fixed seed: every router and every run replays the same order.
function shuffle<T>(items: T[]): T[] {
  let seed = 0x9e3779b9;
  const next = (): number => {
    seed ^= seed << 13;
    seed ^= seed >>> 17;
    seed ^= seed << 5;
    return (seed >>> 0) / 0x1_0000_0000;
  };
  for (let i = items.length - 1; i > 0; i--) {
    const j = Math.floor(next() * (i + 1));
    [items[i], items[j]] = [items[j] as T, items[i] as T];
  }
  return items;
}
