import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { RouteCollection } from './route-collection.js';
import { pathsNear } from './route-paths.fixture.js';
import { RouteIndex } from './route-index.js';
import type { RouteDefinition } from './route.js';

// Routes of segment shape (literal against placeholder at the same place, in order or interleaved,
// requirements, trailing slashes, an empty segment, the same path twice, a static route an earlier one
// shadows) and, under /files only, routes of other shapes.
const DEFINITIONS: RouteDefinition[] = [
  { name: 'repo', path: '/repos/{owner}/{repo}', methods: ['GET'] },
  { name: 'repo_delete', path: '/repos/{owner}/{repo}', methods: ['DELETE'] },
  { name: 'issue', path: '/repos/{owner}/{repo}/issues/{number}', requirements: { number: '\\d+' } },
  { name: 'issue_comments', path: '/repos/{owner}/{repo}/issues/comments' },
  { name: 'issue_any', path: '/repos/{owner}/{repo}/issues/{number}' },
  // Interleaves with issue_any: a literal node's routes on both sides of a placeholder node's.
  { name: 'issue_comments_delete', path: '/repos/{owner}/{repo}/issues/comments', methods: ['DELETE'] },
  { name: 'section', path: '/repos/{owner}/{repo}/{section}/' },
  { name: 'shadowed', path: '/repos/x/y' },
  { name: 'pair', path: '/{a}/{b}', methods: ['POST'] },
  { name: 'gap', path: '/gap//end' },
  { name: 'word', path: '/w/{word<\\w+>}/{n<\\d+>}' },
  { name: 'unicode', path: '/é/{x}' },
  { name: 'astral', path: '/x/\u{1F600}/{x}' },
  { name: 'file', path: '/files/{name}.{ext}' },
  { name: 'tree', path: '/files/{path}', requirements: { path: '.+' } },
  { name: 'page', path: '/files/page/{p}', defaults: { p: '1' } },
  { name: 'file_plain', path: '/files/{name}' },
];

/** The routes the regex group yields for a path, hit after hit, with their captures. */
function byRegexGroup(index: RouteIndex, path: string): { name: string; groups: (string | undefined)[] }[] {
  const group = index.regexGroup(path);
  const found: { name: string; groups: (string | undefined)[] }[] = [];
  for (let hit = group.next(path, 0); hit !== undefined; hit = group.next(path, hit.position + 1)) found.push({ name: hit.route.name, groups: Array.from(hit.groups) });
  return found;
}

describe('RouteIndex.segmentMatch', () => {
  const index = new RouteIndex(new RouteCollection().addAll(DEFINITIONS));
  const segment = fc.constantFrom('repos', 'x', 'y', 'issues', 'comments', '42', 'files', 'page', 'a.b', 'gap', 'end', 'w', 'é', '\u{1F600}', '\u{1F601}', '', 'a_1', '%2F');
  const path = pathsNear(DEFINITIONS.map((route) => route.path), segment, 7);

  it('finds exactly the routes the regex group finds, in the same order, with the same captures', () => {
    fc.assert(
      fc.property(path, fc.constantFrom('', '/', '//'), (base, slashes) => {
        const path = `${base}${slashes}`;
        const hits = index.segmentMatch(path);
        if (hits === undefined) return;
        const found = hits.flatMap(({ routes, groups }) => routes.map((route) => ({ name: route.name, groups: [...groups] })));
        assert.deepEqual(found, byRegexGroup(index, path), path);
      }),
      { numRuns: 3000 },
    );
  });

  it('leaves to the regex group the paths a route of another shape could match, and only those', () => {
    assert.equal(index.segmentMatch('/files/a.b'), undefined);
    assert.equal(index.segmentMatch('/files/'), undefined);
    assert.deepEqual(
      index.segmentMatch('/repos/o/r/issues/7')?.flatMap(({ routes }) => routes.map((route) => route.name)),
      ['issue', 'issue_any'],
    );
    assert.deepEqual(index.segmentMatch('/nothing/here/at/all'), []);
  });

  it('leaves every path to the regex group when a route of another shape starts with a placeholder', () => {
    const wild = new RouteIndex(new RouteCollection().addAll([...DEFINITIONS, { name: 'any', path: '/{any}', requirements: { any: '.*' } }]));
    assert.equal(wild.segmentMatch('/repos/o/r'), undefined);
  });

  it('answers that nothing matches a path that does not start with a slash', () => {
    assert.deepEqual(index.segmentMatch('repos/o/r'), []);
  });
});
