import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { Matcher } from './matcher.js';
import { ORACLE_ROUTES } from './matcher.contract.js';
import { RegexGroup } from './regex-group.js';
import { compileRoute, type Route, type RouteDefinition } from './route.js';
import { RouteCollection } from './route-collection.js';

const DEFINITIONS: RouteDefinition[] = [
  { name: 'repo', path: '/repos/{owner}/{repo}' },
  { name: 'repo_again', path: '/repos/{owner}/{repo}', methods: ['DELETE'] },
  { name: 'issues', path: '/repos/{owner}/{repo}/issues' },
  { name: 'issue_comments', path: '/repos/{owner}/{repo}/issues/comments' },
  { name: 'issue', path: '/repos/{owner}/{repo}/issues/{number}', requirements: { number: '\\d+' } },
  { name: 'issue_any', path: '/repos/{owner}/{repo}/issues/{number}' },
  { name: 'page', path: '/repos/{owner}/list/{page}', defaults: { page: '1' } },
  { name: 'tree', path: '/repos/{owner}/tree/{path}', requirements: { path: '.+' } },
  { name: 'file', path: '/repos/{name}.{ext}/raw' },
  { name: 'slash', path: '/repos/{owner}/' },
  { name: 'static', path: '/repos/x/y' },
];
const ROUTES: Route[] = DEFINITIONS.map(compileRoute);

/** The first route whose own path regex matches, as the matcher tested them one by one. */
function scan(routes: readonly Route[], path: string): { name: string; groups: (string | undefined)[] } | undefined {
  for (const route of routes) {
    const groups = route.pathRegex.exec(path);
    if (groups !== null) return { name: route.name, groups: [...groups] };
  }
  return undefined;
}

describe('RegexGroup', () => {
  const group = new RegexGroup(ROUTES);
  const segment = fc.constantFrom('repos', 'x', 'y', 'issues', 'comments', '42', 'list', 'tree', 'a.b', 'raw', '', 'é', '%2F');

  it('finds the route a one-by-one scan in definition order finds, with the same captures', () => {
    fc.assert(
      fc.property(fc.array(segment, { maxLength: 7 }), fc.boolean(), (segments, trailingSlash) => {
        const path = `/${segments.join('/')}${trailingSlash ? '/' : ''}`;
        const hit = group.next(path, 0);
        const expected = scan(ROUTES, path);
        assert.deepEqual(hit === undefined ? undefined : { name: hit.route.name, groups: Array.from(hit.groups) }, expected);
      }),
      { numRuns: 2000 },
    );
  });

  it('resumes after a given position, for routes that matched the path but not the method', () => {
    const path = '/repos/o/r';
    const first = group.next(path, 0);
    assert.equal(first?.route.name, 'repo');
    assert.equal(group.next(path, (first?.position ?? 0) + 1)?.route.name, 'repo_again');
  });
});

describe('Matcher.lookup', () => {
  const matcher = new Matcher(new RouteCollection().addAll(ORACLE_ROUTES));
  const context = { method: 'GET', host: 'app.example.test', scheme: 'https' };

  it('returns a miss where match throws, naming the last path tried', () => {
    assert.deepEqual(matcher.lookup({ ...context, path: '/robots.txt' }), {
      miss: { kind: 'notFound', path: '/robots.txt/', noConfiguration: false },
    });
    assert.throws(() => matcher.match({ ...context, path: '/robots.txt' }), { message: 'No routes found for "/robots.txt/".' });
  });

  it('returns the match itself on a hit', () => {
    const hit = matcher.lookup({ ...context, path: '/blog/' });
    assert.ok(!('miss' in hit));
    assert.equal(hit.route.name, matcher.match({ ...context, path: '/blog/' }).route.name);
  });
});

describe('RegexGroup with very many routes', () => {
  it('finds the route a scan finds in a group too large for one combined regex (V8 refuses it at 20 000)', () => {
    const routes = Array.from({ length: 20_000 }, (_, i) => compileRoute({ name: `r${i}`, path: `/r/f${i}-{a<\\d+>}.{_format}` }));
    const group = new RegexGroup(routes);
    for (const path of ['/r/f19999-12.json', '/r/f0-1.x', '/r/f123-x.json']) {
      const hit = group.next(path, 0);
      const expected = scan(routes, path);
      assert.deepEqual(hit === undefined ? undefined : { name: hit.route.name, groups: Array.from(hit.groups) }, expected, path);
    }
  });
});
