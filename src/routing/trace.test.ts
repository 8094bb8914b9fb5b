import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ORACLE_ROUTES } from './matcher.contract.js';
import { Matcher } from './matcher.js';
import { RouteCollection } from './route-collection.js';
import { traceRoutes } from './trace.js';

const routes = new RouteCollection().addAll([...ORACLE_ROUTES, { name: 'tenant', path: '/tenant', host: 'acme.example.com' }, { name: 'secure', path: '/secure', schemes: ['https'] }]);
const context = { method: 'GET', host: 'app.example.test', scheme: 'https' };
const levels = (trace: ReturnType<typeof traceRoutes>, attempt = 0) =>
  Object.fromEntries((trace.attempts[attempt]?.routes ?? []).filter((r) => r.level !== 'none').map((r) => [r.name, `${r.level}:${r.reason}`]));

describe('traceRoutes', () => {
  it('reports the routes in definition order up to the one that decides, with the outcome', () => {
    const trace = traceRoutes(routes, { ...context, path: '/about' });
    const names = [...routes].map((r) => r.name);
    assert.deepEqual(trace.attempts[0]?.routes.map((r) => r.name), names.slice(0, names.indexOf('about') + 1));
    assert.deepEqual(levels(trace), { about: 'match:match' });
    assert.deepEqual(trace.outcome, { kind: 'match', route: 'about', params: {} });
    // A miss asks every route.
    assert.deepEqual(traceRoutes(routes, { ...context, path: '/robots.txt' }).attempts[0]?.routes.map((r) => r.name), names);
  });

  it('stops at a route that redirects to its slash-toggled path: the routes after it are never asked', () => {
    const table = new RouteCollection().addAll([{ name: 'tsa', path: '/tsa/' }, { name: 'tsb', path: '/tsa', methods: ['GET'] }]);
    const trace = traceRoutes(table, { ...context, path: '/tsa' });
    assert.deepEqual(trace.attempts[0]?.routes.map((r) => `${r.name} ${r.level}`), ['tsa almost']);
    assert.equal(trace.outcome.kind, 'redirect');
  });

  it('explains a 405 with the route methods', () => {
    const trace = traceRoutes(new Matcher(routes), { ...context, path: '/items/12' });
    const item = trace.attempts[0]?.routes.find((r) => r.name === 'item_edit');
    assert.deepEqual(item?.methods, ['PUT', 'PATCH', 'DELETE']);
    assert.equal(item?.message, 'Method "GET" does not match any of the required methods (PUT, PATCH, DELETE)');
    assert.deepEqual(trace.outcome, { kind: 'methodNotAllowed', allow: ['PUT', 'PATCH', 'DELETE'] });
  });

  it('names the requirement that failed', () => {
    const trace = traceRoutes(routes, { ...context, method: 'PUT', path: '/items/abc' });
    const item = trace.attempts[0]?.routes.find((r) => r.name === 'item_edit');
    assert.equal(item?.level, 'almost');
    assert.deepEqual(item?.requirement, { name: 'id', regex: '\\d+' });
    assert.equal(item?.message, 'Requirement for "id" does not match (\\d+)');
  });

  it('includes the trailing-slash retry as a second attempt', () => {
    const trace = traceRoutes(routes, { ...context, path: '/blog' });
    assert.deepEqual(trace.attempts.map((a) => a.path), ['/blog', '/blog/']);
    assert.deepEqual(levels(trace, 0), { blog_index: 'almost:trailingSlash' });
    assert.deepEqual(levels(trace, 1), { blog_index: 'match:match' });
    assert.deepEqual(trace.outcome, { kind: 'redirect', route: 'blog_index', params: {}, path: '/blog/' });
  });

  it('reports host and scheme near-misses', () => {
    assert.deepEqual(levels(traceRoutes(routes, { ...context, path: '/tenant' })), { tenant: 'almost:host' });
    const trace = traceRoutes(routes, { ...context, scheme: 'http', path: '/secure' });
    assert.deepEqual(levels(trace), { secure: 'almost:scheme' });
    assert.deepEqual(trace.attempts.map((a) => a.scheme), ['http', 'https']);
    assert.deepEqual(trace.outcome, { kind: 'redirect', route: 'secure', params: {}, path: '/secure', scheme: 'https' });
  });

  it('ends with the inner not-found message', () => {
    const trace = traceRoutes(routes, { ...context, path: '/robots.txt' });
    assert.deepEqual(trace.outcome, { kind: 'notFound', message: 'No routes found for "/robots.txt/".' });
    assert.equal(trace.attempts.length, 2);
  });
});
