import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { describeMatcherContract, ORACLE_ROUTES } from './matcher.contract.js';
import { Matcher } from './matcher.js';
import { RouteCollection } from './route-collection.js';
import type { RouteDefinition } from './route.js';
import { isRoutingError, ResourceNotFoundException } from './routing-errors.js';

const createMatcher = (routes: RouteDefinition[]) => {
  const matcher = new Matcher(new RouteCollection().addAll(routes));
  return matcher.match.bind(matcher);
};

describeMatcherContract('Matcher', createMatcher);

describe('Matcher without redirects', () => {
  const matcher = new Matcher(new RouteCollection().addAll(ORACLE_ROUTES), { redirects: false });
  const context = { method: 'GET', host: 'app.example.test', scheme: 'https' };

  it('names the path as requested and never redirects', () => {
    assert.throws(() => matcher.match({ ...context, path: '/blog' }), { message: 'No routes found for "/blog".' });
    assert.throws(() => matcher.match({ ...context, path: '/about/' }), { message: 'No routes found for "/about/".' });
  });
});

describe('Matcher on random input', () => {
  const matcher = new Matcher(
    new RouteCollection().addAll([
      ...ORACLE_ROUTES,
      { name: 'tree', path: '/tree/{path}', requirements: { path: '.+' } },
      { name: 'file', path: '/files/{name}.{ext?txt}' },
      { name: 'tenant', path: '/t/{id}', host: '{tenant}.example.com', schemes: ['https'] },
    ]),
  );
  const segment = fc.stringMatching(/^(?:[a-z0-9.~_-]|%[0-9A-Fa-f]{0,2}|%[g-z]{2}|[/?#%\u00e9\ud800])*$/);

  it('throws nothing but the two routing errors, whatever the path, method, host and scheme', () => {
    fc.assert(
      fc.property(
        fc.oneof(segment.map((s) => `/${s}`), fc.string(), fc.string({ unit: 'binary' })),
        fc.constantFrom('GET', 'HEAD', 'POST', 'PUT', 'DELETE', 'OPTIONS', 'get', 'BREW'),
        fc.constantFrom('app.example.test', 'acme.example.com', '', 'ÉXAMPLE.com'),
        fc.constantFrom('http', 'https'),
        (path, method, host, scheme) => {
          try {
            matcher.match({ method, path, host, scheme });
          } catch (error) {
            if (!isRoutingError(error)) throw error;
          }
        },
      ),
      { numRuns: 3000 },
    );
  });
});

describe('Matcher on a large table', () => {
  const routes: RouteDefinition[] = [];
  for (let i = 0; i < 2500; i++) {
    routes.push({ name: `static_${i}`, path: `/section${i}/index`, methods: i % 2 === 0 ? ['GET'] : ['POST'] });
    routes.push({ name: `dynamic_${i}`, path: `/section${i}/items/{id<\\d+>}` });
  }
  routes.push({ name: 'fallback', path: '/files/{any}', requirements: { any: '.+' } });
  const matcher = new Matcher(new RouteCollection().addAll(routes));
  const context = { host: 'example.com', scheme: 'https' };

  it('builds 5000 routes and finds the right one at either end of the table', () => {
    assert.equal(matcher.routes.length, 5001);
    assert.equal(matcher.match({ ...context, method: 'GET', path: '/section0/index' }).route.name, 'static_0');
    assert.equal(matcher.match({ ...context, method: 'POST', path: '/section2499/index' }).route.name, 'static_2499');
    assert.deepEqual(matcher.match({ ...context, method: 'GET', path: '/section2498/items/7' }).params, { id: '7' });
    assert.deepEqual(matcher.match({ ...context, method: 'GET', path: '/files/a/b' }).params, { any: 'a/b' });
    assert.throws(() => matcher.match({ ...context, method: 'GET', path: '/section2499/items/x' }), ResourceNotFoundException);
  });

  it('still computes the Allow list and the trailing-slash redirect', () => {
    assert.throws(() => matcher.match({ ...context, method: 'GET', path: '/section1/index' }), { allow: ['POST'] });
    assert.deepEqual(matcher.match({ ...context, method: 'GET', path: '/section0/index/' }), {
      route: matcher.routes[0],
      params: {},
      redirect: { path: '/section0/index' },
    });
  });
});

describe('Matcher.lookup without a pass listener', () => {
  const matcher = new Matcher(
    new RouteCollection().addAll([
      ...ORACLE_ROUTES,
      { name: 'repo', path: '/repos/{owner}/{repo}', methods: ['GET'] },
      { name: 'repo_dir', path: '/repos/{owner}/{repo}/tree/' },
      { name: 'tree', path: '/tree/{path}', requirements: { path: '.+' } },
      { name: 'secure', path: '/secure/{id}', schemes: ['https'] },
    ]),
  );
  const segment = fc.constantFrom('repos', 'o', 'r', 'tree', 'secure', 'blog', 'about', 'items', '12', '', '%2F', '%2f', '%zz', 'x%2F');

  it('answers as when every pass is heard, the trailing-slash retry included', () => {
    fc.assert(
      fc.property(fc.array(segment, { maxLength: 5 }), fc.constantFrom('', '/', '//'), fc.constantFrom('GET', 'HEAD', 'POST'), fc.constantFrom('http', 'https'), (segments, slashes, method, scheme) => {
        const context = { method, path: `/${segments.join('/')}${slashes}`, host: 'example.com', scheme };
        assert.deepEqual(matcher.lookup(context), matcher.lookup(context, () => {}), context.path);
      }),
      { numRuns: 3000 },
    );
  });
});

describe('Matcher with placeholders named as an object\'s own properties', () => {
  it('gives {constructor}, {toString} and {valueOf} the default requirement', () => {
    const matcher = new Matcher(
      new RouteCollection().addAll([
        { name: 'team', path: '/teams/{constructor}' },
        { name: 'text', path: '/text/{toString}/{valueOf}' },
      ]),
    );
    const context = { method: 'GET', host: 'example.com', scheme: 'https' };
    assert.deepEqual(matcher.match({ ...context, path: '/teams/williams' }).params, { constructor: 'williams' });
    assert.deepEqual(matcher.match({ ...context, path: '/text/a/b' }).params, { toString: 'a', valueOf: 'b' });
  });
});
