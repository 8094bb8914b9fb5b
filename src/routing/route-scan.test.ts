import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { createMatchInput } from './match-input.js';
import { Matcher, type MatchContext, type PassResult } from './matcher.js';
import { rawUrlDecode } from './raw-url-decode.js';
import { RouteCollection } from './route-collection.js';
import { pathsNear } from './route-paths.fixture.js';
import type { RouteIndex } from './route-index.js';
import type { Route, RouteDefinition } from './route.js';
import { evaluateRoute } from './route-verdict.js';
import { ResourceNotFoundException } from './routing-errors.js';

// Routes that the trie walks and routes it leaves to the regex groups, with methods, schemes, hosts and
// trailing slashes that make every kind of verdict, in an order where several routes share a path.
const DEFINITIONS: RouteDefinition[] = [
  { name: 'home', path: '/', methods: ['GET'] },
  { name: 'repo', path: '/repos/{owner}/{repo}', methods: ['GET', 'HEAD'] },
  { name: 'repo_edit', path: '/repos/{owner}/{repo}', methods: ['PATCH'] },
  { name: 'repo_secure', path: '/repos/{owner}/{repo}', methods: ['DELETE'], schemes: ['https'] },
  { name: 'repo_dir', path: '/repos/{owner}/{repo}/tree/', methods: ['GET'] },
  { name: 'repo_tree', path: '/repos/{owner}/{repo}/tree', methods: ['POST'] },
  { name: 'issue', path: '/repos/{owner}/{repo}/issues/{number<\\d+>}', methods: ['PUT', 'GET'] },
  { name: 'issue_any', path: '/repos/{owner}/{repo}/issues/{number}', methods: ['DELETE'] },
  { name: 'tenant', path: '/repos/{owner}', host: '{tenant}.example.com', methods: ['GET'] },
  { name: 'static_post', path: '/repos/x/y', methods: ['POST'] },
  { name: 'about', path: '/about', methods: ['GET'], schemes: ['http'] },
  { name: 'about_put', path: '/about/', methods: ['PUT'] },
  { name: 'pair', path: '/{a}/{b}', methods: ['OPTIONS'] },
  { name: 'tree', path: '/files/{path}', requirements: { path: '.+' }, methods: ['GET'] },
  { name: 'file', path: '/files/{name}.{ext}', methods: ['PUT'] },
];

type PassOutcome = PassResult | 'noConfiguration';

/** Symfony's doMatch as written: every candidate of the index tested in turn, nothing skipped. */
function referencePass(index: RouteIndex, rawPath: string, context: MatchContext): PassOutcome {
  const decoded = rawUrlDecode(rawPath);
  if (decoded === undefined) return { allow: [], allowSchemes: [] };
  const input = createMatchInput(decoded, context, true);
  const candidates: [Route, ArrayLike<string | undefined> | undefined][] = index.staticRoutes(input.trimmedPath).map((route) => [route, undefined]);
  const group = index.regexGroup(input.path);
  for (let hit = group.next(input.path, 0); hit !== undefined; hit = group.next(input.path, hit.position + 1)) candidates.push([hit.route, hit.groups]);
  const allow: string[] = [];
  const allowSchemes: string[] = [];
  for (const [route, groups] of candidates) {
    const verdict = evaluateRoute(route, input, groups !== undefined, groups);
    if (verdict.kind === 'match') return { match: { route, params: verdict.params }, allow: [], allowSchemes: [] };
    if (verdict.kind === 'trailingSlash' && verdict.stop) return { allow: [], allowSchemes: [] };
    if (verdict.kind === 'method') allow.push(...verdict.methods.filter((method) => !allow.includes(method)));
    if (verdict.kind === 'scheme') allowSchemes.push(...verdict.schemes.filter((scheme) => !allowSchemes.includes(scheme)));
  }
  return input.path === '/' && allow.length === 0 && allowSchemes.length === 0 ? 'noConfiguration' : { allow, allowSchemes };
}

function pass(matcher: Matcher, rawPath: string, context: MatchContext): PassOutcome {
  try {
    return matcher.matchPass(rawPath, context);
  } catch (error) {
    if (error instanceof ResourceNotFoundException && error.noConfiguration) return 'noConfiguration';
    throw error;
  }
}

describe('scanRoutes', () => {
  const matcher = new Matcher(new RouteCollection().addAll(DEFINITIONS));
  const segment = fc.constantFrom('repos', 'o', 'r', 'tree', 'issues', '42', 'x', 'y', 'about', 'files', 'a.b', '', '%2F');
  const path = pathsNear(DEFINITIONS.map((route) => route.path), segment, 5);

  it('decides every pass as testing each candidate in turn does, Allow and scheme lists included', () => {
    fc.assert(
      fc.property(
        path,
        fc.constantFrom('', '/', '//'),
        fc.constantFrom('GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS', 'get'),
        fc.constantFrom('acme.example.com', 'example.org'),
        fc.constantFrom('http', 'https'),
        (base, slashes, method, host, scheme) => {
          const context = { method, path: `${base}${slashes}`, host, scheme };
          assert.deepEqual(pass(matcher, context.path, context), referencePass(matcher.index, context.path, context), `${method} ${context.path}`);
        },
      ),
      { numRuns: 4000 },
    );
  });
});
