import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { RouteCollection } from './route-collection.js';
import { RouteIndex } from './route-index.js';
import { segmentAt } from './segment-split.js';

// Enough routes under /repos with the same segment count for the split to happen, mixed with routes it
// must never leave out: a placeholder where the split looks, a trailing slash, a slash-spanning placeholder,
// an optional one, a requirement, and a later duplicate.
const routes = new RouteCollection().addAll([
  { name: 'issues', path: '/repos/{owner}/{repo}/issues' },
  { name: 'pulls', path: '/repos/{owner}/{repo}/pulls' },
  { name: 'any_section', path: '/repos/{owner}/{repo}/{section}' },
  { name: 'branches', path: '/repos/{owner}/{repo}/branches/' },
  { name: 'tags', path: '/repos/{owner}/{repo}/tags' },
  { name: 'numbered', path: '/repos/{owner}/{repo}/{n}', requirements: { n: '\\d+' } },
  { name: 'hooks', path: '/repos/{owner}/{repo}/hooks' },
  { name: 'raw', path: '/repos/{owner}/{path}', requirements: { path: '.+' } },
  { name: 'forks', path: '/repos/{owner}/{repo}/forks' },
  { name: 'stars', path: '/repos/{owner}/{repo}/stars' },
  { name: 'page', path: '/repos/{owner}/{repo}/page/{p}', defaults: { p: '1' } },
  { name: 'issue', path: '/repos/{owner}/{repo}/issues/{number}' },
  { name: 'issue_comments', path: '/repos/{owner}/{repo}/issues/{number}/comments' },
  { name: 'pull', path: '/repos/{owner}/{repo}/pulls/{number}' },
  { name: 'issues_again', path: '/repos/{owner}/{repo}/issues' },
  { name: 'labels', path: '/repos/{owner}/{repo}/labels' },
]);

describe('RouteIndex with segment splits', () => {
  const index = new RouteIndex(routes);
  const byRegex = index.routes.filter((route) => index.isTestedByRegex(route));
  const segment = fc.constantFrom('repos', 'o', 'r', 'issues', 'pulls', 'branches', 'page', 'comments', '42', 'tags', 'x', '', 'é', 'issues2');

  it('yields, hit after hit, exactly the routes whose regex matches, in definition order', () => {
    fc.assert(
      fc.property(fc.array(segment, { maxLength: 7 }), fc.boolean(), (segments, trailingSlash) => {
        const path = `/${segments.join('/')}${trailingSlash ? '/' : ''}`;
        const group = index.regexGroup(path);
        const found: string[] = [];
        for (let from = 0, hit = group.next(path, 0); hit !== undefined; from = hit.position + 1, hit = group.next(path, from)) found.push(hit.route.name);
        assert.deepEqual(found, byRegex.filter((route) => route.pathRegex.test(path)).map((route) => route.name), path);
      }),
      { numRuns: 3000 },
    );
  });

  it('tests fewer routes for a path whose split segment is literal', () => {
    assert.ok(index.regexGroup('/repos/o/r/issues').routes.length < index.regexGroup('/repos/o/r/zzz').routes.length + 3);
    assert.ok(!index.regexGroup('/repos/o/r/issues').routes.some((route) => route.name === 'pulls'));
  });
});

describe('segmentAt', () => {
  it('reads a segment, one trailing slash ignored', () => {
    assert.equal(segmentAt('/repos/o/r/issues', 4), 'issues');
    assert.equal(segmentAt('/repos/o/r/issues/', 4), 'issues');
    assert.equal(segmentAt('/repos/o/r/issues/1', 4), 'issues');
    assert.equal(segmentAt('/repos/o', 4), undefined);
    assert.equal(segmentAt('/repos//', 2), '');
  });
});
