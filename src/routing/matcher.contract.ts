import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { MatchContext, MatchResult } from './matcher.js';
import type { RouteDefinition } from './route.js';
import { MethodNotAllowedException, ResourceNotFoundException } from './routing-errors.js';

/** The reference application's route table (its Kernel::configureRoutes), in the same order. */
export const ORACLE_ROUTES: RouteDefinition[] = [
  { name: 'home', path: '/', methods: ['GET'] },
  { name: 'login', path: '/login', methods: ['POST'] },
  { name: 'blog_index', path: '/blog/' },
  { name: 'about', path: '/about' },
  { name: 'item_edit', path: '/items/{id}', methods: ['PUT', 'PATCH', 'DELETE'], requirements: { id: '\\d+' } },
  { name: 'boom', path: '/boom' },
  { name: 'limited', path: '/limited' },
  { name: 'limited_bare', path: '/limited-bare' },
  { name: 'api_limited', path: '/api/limited' },
];

export type MatchFn = (context: MatchContext) => MatchResult;
/** Builds a redirecting matcher (the full-stack configuration) over a route table. */
export type CreateMatcher = (routes: RouteDefinition[]) => MatchFn;

const HOST = 'app.example.test';

function request(method: string, path: string, extra: Partial<MatchContext> = {}): MatchContext {
  return { method, path, host: HOST, scheme: 'https', ...extra };
}

function notFoundMessage(match: MatchFn, context: MatchContext): string {
  try {
    match(context);
  } catch (error) {
    assert.ok(error instanceof ResourceNotFoundException, `expected ResourceNotFoundException, got ${String(error)}`);
    return error.message;
  }
  assert.fail(`expected ${context.method} ${context.path} to find no route`);
}

function allowOf(match: MatchFn, context: MatchContext): readonly string[] {
  try {
    match(context);
  } catch (error) {
    assert.ok(error instanceof MethodNotAllowedException, `expected MethodNotAllowedException, got ${String(error)}`);
    return error.allow;
  }
  assert.fail(`expected ${context.method} ${context.path} to be refused by method`);
}

function summary(result: MatchResult): { route: string; params: Record<string, string>; redirect?: unknown } {
  return 'redirect' in result ? { route: result.route.name, params: result.params, redirect: result.redirect } : { route: result.route.name, params: result.params };
}

/**
 * The matching rules of the reference (spec §2.2–2.3), checked against any matcher built by `create`.
 * Expected strings come from the recorded responses of the reference application.
 */
export function describeMatcherContract(name: string, create: CreateMatcher): void {
  describe(`${name}: the reference application's routes`, () => {
    const match = create(ORACLE_ROUTES);

    it('matches a GET route and answers HEAD with it', () => {
      assert.deepEqual(summary(match(request('GET', '/'))), { route: 'home', params: {} });
      assert.deepEqual(summary(match(request('HEAD', '/'))), { route: 'home', params: {} });
    });

    it('names the retried path with a slash added in the inner 404 message', () => {
      assert.equal(notFoundMessage(match, request('GET', '/robots.txt')), 'No routes found for "/robots.txt/".');
      assert.equal(notFoundMessage(match, request('HEAD', '/robots.txt')), 'No routes found for "/robots.txt/".');
    });

    it('names the retried path with the slash removed when the request had one', () => {
      assert.equal(notFoundMessage(match, request('GET', '/robots.txt/')), 'No routes found for "/robots.txt".');
    });

    it('does not retry other methods than GET and HEAD', () => {
      assert.equal(notFoundMessage(match, request('POST', '/blog')), 'No routes found for "/blog".');
      assert.equal(notFoundMessage(match, request('OPTIONS', '/robots.txt')), 'No routes found for "/robots.txt".');
    });

    it('redirects GET and HEAD to the path with the trailing slash toggled', () => {
      assert.deepEqual(summary(match(request('GET', '/blog'))), { route: 'blog_index', params: {}, redirect: { path: '/blog/' } });
      assert.deepEqual(summary(match(request('HEAD', '/blog'))), { route: 'blog_index', params: {}, redirect: { path: '/blog/' } });
      assert.deepEqual(summary(match(request('GET', '/about/'))), { route: 'about', params: {}, redirect: { path: '/about' } });
      assert.deepEqual(summary(match(request('GET', '/about//'))), { route: 'about', params: {}, redirect: { path: '/about' } });
    });

    it('matches a slash-terminated static route whatever the number of trailing slashes', () => {
      assert.deepEqual(summary(match(request('GET', '/blog//'))), { route: 'blog_index', params: {} });
    });

    it('answers 405 with the methods of the matching routes, without retrying', () => {
      assert.deepEqual(allowOf(match, request('GET', '/login')), ['POST']);
      assert.deepEqual(allowOf(match, request('HEAD', '/login')), ['POST']);
      assert.deepEqual(allowOf(match, request('GET', '/items/12')), ['PUT', 'PATCH', 'DELETE']);
    });

    it('gives 404 when the wrong slash variant only exists for another method', () => {
      assert.equal(notFoundMessage(match, request('GET', '/login/')), 'No routes found for "/login".');
    });

    it('matches a placeholder only when its requirement holds', () => {
      assert.deepEqual(summary(match(request('PUT', '/items/12'))), { route: 'item_edit', params: { id: '12' } });
      assert.equal(notFoundMessage(match, request('PUT', '/items/abc')), 'No routes found for "/items/abc".');
    });

    it('decodes the path before matching and keeps it encoded in messages', () => {
      assert.deepEqual(summary(match(request('GET', '/%61bout'))), { route: 'about', params: {} });
      assert.equal(notFoundMessage(match, request('GET', '/a%20b')), 'No routes found for "/a%20b/".');
      assert.equal(notFoundMessage(match, request('GET', '/caf%C3%A9')), 'No routes found for "/caf%C3%A9/".');
    });

    it('keeps an encoded byte-order mark as part of the path: /%EF%BB%BFabout is not /about', () => {
      assert.equal(notFoundMessage(match, request('GET', '/%EF%BB%BFabout')), 'No routes found for "/%EF%BB%BFabout/".');
      assert.equal(notFoundMessage(match, request('GET', '/ab%EF%BB%BFout')), 'No routes found for "/ab%EF%BB%BFout/".');
      assert.equal(notFoundMessage(match, request('PUT', '/items/%EF%BB%BF12')), 'No routes found for "/items/%EF%BB%BF12".');
    });

    it('treats malformed percent-encoding as a path that matches nothing, never as a failure', () => {
      assert.equal(notFoundMessage(match, request('GET', '/%zz')), 'No routes found for "/%zz/".');
      assert.equal(notFoundMessage(match, request('GET', '/%E0%A4%A')), 'No routes found for "/%E0%A4%A/".');
      assert.equal(notFoundMessage(match, request('GET', '/%FF%FE')), 'No routes found for "/%FF%FE/".');
      assert.equal(notFoundMessage(match, request('GET', '/%')), 'No routes found for "/%/".');
    });
  });

  describe(`${name}: the Allow list`, () => {
    it('lists declared methods in route order, first occurrence kept, nothing added', () => {
      const match = create([
        { name: 'thing_write', path: '/api/thing', methods: ['POST', 'PUT'] },
        { name: 'thing_read', path: '/api/thing', methods: ['GET', 'POST'] },
      ]);
      assert.deepEqual(allowOf(match, request('DELETE', '/api/thing')), ['POST', 'PUT', 'GET']);
      assert.deepEqual(allowOf(match, request('OPTIONS', '/api/thing')), ['POST', 'PUT', 'GET']);
    });

    it('collects methods across static and dynamic routes', () => {
      const match = create([
        { name: 'one', path: '/api/{thing}', methods: ['PATCH'] },
        { name: 'two', path: '/api/thing', methods: ['PUT'] },
      ]);
      assert.deepEqual(allowOf(match, request('GET', '/api/thing')), ['PATCH', 'PUT']);
    });

    it('accepts the literal request method as well as HEAD-as-GET', () => {
      const match = create([{ name: 'head_only', path: '/ping', methods: ['HEAD'] }]);
      assert.equal(summary(match(request('HEAD', '/ping'))).route, 'head_only');
      assert.deepEqual(allowOf(match, request('GET', '/ping')), ['HEAD']);
    });
  });

  describe(`${name}: definition order`, () => {
    it('lets an earlier dynamic route win over a later static one', () => {
      const match = create([
        { name: 'page', path: '/{slug}' },
        { name: 'about', path: '/about' },
      ]);
      assert.deepEqual(summary(match(request('GET', '/about'))), { route: 'page', params: { slug: 'about' } });
    });

    it('lets an earlier static route win over a later dynamic one', () => {
      const match = create([
        { name: 'about', path: '/about' },
        { name: 'page', path: '/{slug}' },
      ]);
      assert.equal(summary(match(request('GET', '/about'))).route, 'about');
      assert.deepEqual(summary(match(request('GET', '/contact'))), { route: 'page', params: { slug: 'contact' } });
    });

    it('keeps order between routes of different first segments', () => {
      const match = create([
        { name: 'catch_all', path: '/{a}/{b}', methods: ['POST'] },
        { name: 'blog_post', path: '/blog/{slug}' },
      ]);
      assert.equal(summary(match(request('POST', '/blog/x'))).route, 'catch_all');
      assert.equal(summary(match(request('GET', '/blog/x'))).route, 'blog_post');
    });

    it('stops at the first route that would match with the slash toggled, even if a later one matches exactly', () => {
      const match = create([
        { name: 'dir', path: '/docs/' },
        { name: 'file', path: '/{name}' },
      ]);
      assert.deepEqual(summary(match(request('GET', '/docs'))), { route: 'dir', params: {}, redirect: { path: '/docs/' } });
      assert.deepEqual(summary(match(request('POST', '/docs'))), { route: 'file', params: { name: 'docs' } });
    });
  });

  describe(`${name}: placeholders`, () => {
    it('leaves out a trailing placeholder with a default, together with its separator', () => {
      const match = create([{ name: 'list', path: '/list/{page}', defaults: { page: '1' }, requirements: { page: '\\d+' } }]);
      assert.deepEqual(summary(match(request('GET', '/list'))), { route: 'list', params: {} });
      assert.deepEqual(summary(match(request('GET', '/list/4'))), { route: 'list', params: { page: '4' } });
      assert.deepEqual(summary(match(request('GET', '/list/'))), { route: 'list', params: {}, redirect: { path: '/list' } });
    });

    it('gives an optional placeholder whose requirement matches nothing the empty string, not its default, as PCRE captures it', () => {
      const match = create([{ name: 'page', path: '/{page<\\d*>?1}' }, { name: 'pair', path: '/p/{a}{b}', requirements: { a: '[^/]{1,8}', b: '.*' }, defaults: { b: 'x' } }]);
      assert.deepEqual(summary(match(request('GET', '/'))), { route: 'page', params: { page: '' } });
      assert.deepEqual(summary(match(request('GET', '/12'))), { route: 'page', params: { page: '12' } });
      assert.deepEqual(summary(match(request('GET', '/p/v1'))), { route: 'pair', params: { a: 'v1', b: '' } });
    });

    it('gives an optional placeholder left out before one that matched the empty string, as PCRE leaves its group', () => {
      const page = create([{ name: 'page', path: '/{a?x}.{_format?html}' }]);
      assert.deepEqual(summary(page(request('GET', '/.json'))), { route: 'page', params: { a: '', _format: 'json' } });
      const pair = create([{ name: 'pair', path: '/{a?x}-{b?y}' }]);
      assert.deepEqual(summary(pair(request('GET', '/-2'))), { route: 'pair', params: { a: '', b: '2' } });
      // Left out at the end, they keep their defaults (not among the matched parameters).
      assert.deepEqual(summary(pair(request('GET', '/1'))), { route: 'pair', params: { a: '1' } });
    });

    it('takes requirements written for PCRE: escaped punctuation, \\pL, \\x{…}', () => {
      const match = create([{ name: 'slug', path: '/s/{slug}', requirements: { slug: '\\pL+\\-\\d+\\_caf\\x{e9}' } }]);
      assert.deepEqual(summary(match(request('GET', '/s/%C3%A9t%C3%A9-12_caf%C3%A9'))), { route: 'slug', params: { slug: 'été-12_café' } });
      assert.equal(notFoundMessage(match, request('GET', '/s/ete12_cafe')), 'No routes found for "/s/ete12_cafe/".');
    });

    it('takes placeholder names beyond ASCII, as Symfony takes the bytes of a UTF-8 name', () => {
      const match = create([{ name: 'café', path: '/menu/{plat}/{café<\\d+>}/{名前?x}' }]);
      assert.deepEqual(summary(match(request('GET', '/menu/soupe/2/ja'))), { route: 'café', params: { plat: 'soupe', café: '2', 名前: 'ja' } });
      assert.deepEqual(summary(match(request('GET', '/menu/soupe/2'))), { route: 'café', params: { plat: 'soupe', café: '2' } });
    });

    it('reads inline requirements and defaults', () => {
      const match = create([{ name: 'list', path: '/list/{page<\\d+>?1}.{_format?html}' }]);
      assert.deepEqual(summary(match(request('GET', '/list/3.json'))), { route: 'list', params: { page: '3', _format: 'json' } });
      assert.deepEqual(summary(match(request('GET', '/list/3'))), { route: 'list', params: { page: '3' } });
      assert.equal(notFoundMessage(match, request('GET', '/list/x')), 'No routes found for "/list/x/".');
    });

    it('matches \\d and \\w in requirements as the reference\'s UTF mode does: any digit, any letter', () => {
      const match = create([
        { name: 'item', path: '/items/{id}', requirements: { id: '\\d+' } },
        { name: 'tag', path: '/tags/{slug}/x', requirements: { slug: '[\\w-]+' } },
      ]);
      assert.deepEqual(summary(match(request('GET', '/items/%D9%A1%D9%A2'))), { route: 'item', params: { id: '١٢' } });
      assert.deepEqual(summary(match(request('GET', '/tags/%C3%A9t%C3%A9-2/x'))), { route: 'tag', params: { slug: 'été-2' } });
      assert.equal(notFoundMessage(match, request('GET', '/items/1a')), 'No routes found for "/items/1a/".');
    });

    it('keeps a placeholder from swallowing the separator that follows it', () => {
      const match = create([{ name: 'file', path: '/files/{name}.{ext}' }]);
      assert.deepEqual(summary(match(request('GET', '/files/report.final.pdf'))), { route: 'file', params: { name: 'report', ext: 'final.pdf' } });
    });

    it('lets a requirement that matches slashes keep a trailing slash instead of redirecting', () => {
      const match = create([{ name: 'tree', path: '/tree/{path}', requirements: { path: '.+' } }]);
      assert.deepEqual(summary(match(request('GET', '/tree/a/b'))), { route: 'tree', params: { path: 'a/b' } });
      assert.deepEqual(summary(match(request('GET', '/tree/a/b/'))), { route: 'tree', params: { path: 'a/b/' } });
    });

    it('redirects a slash-less placeholder route when the path only adds a trailing slash', () => {
      const match = create([{ name: 'post', path: '/posts/{slug}' }]);
      assert.deepEqual(summary(match(request('GET', '/posts/hello/'))), { route: 'post', params: { slug: 'hello' }, redirect: { path: '/posts/hello' } });
    });

    it('gives a slash-terminated placeholder route the value without the slash', () => {
      const match = create([{ name: 'dir', path: '/dirs/{name}/', requirements: { name: '.+' } }]);
      assert.deepEqual(summary(match(request('GET', '/dirs/a/b/'))), { route: 'dir', params: { name: 'a/b' } });
      assert.deepEqual(summary(match(request('GET', '/dirs/a/b'))), { route: 'dir', params: { name: 'a/b' }, redirect: { path: '/dirs/a/b/' } });
    });
  });

  describe(`${name}: host and scheme`, () => {
    it('matches a host pattern case-insensitively and returns its placeholders', () => {
      const match = create([{ name: 'tenant', path: '/dashboard', host: '{tenant}.example.com' }]);
      assert.deepEqual(summary(match(request('GET', '/dashboard', { host: 'ACME.example.com' }))), { route: 'tenant', params: { tenant: 'acme' } });
      assert.equal(notFoundMessage(match, request('GET', '/dashboard', { host: 'example.org' })), 'No routes found for "/dashboard/".');
    });

    it('reads a host\'s inline requirements and keeps its placeholder names as written (the host itself lower-cased, as Request::getHost() gives it)', () => {
      const match = create([{ name: 'region', path: '/r', host: '{Region<[a-z]+>}.Example.com' }]);
      assert.deepEqual(summary(match(request('GET', '/r', { host: 'US.example.COM' }))), { route: 'region', params: { Region: 'us' } });
      assert.equal(notFoundMessage(match, request('GET', '/r', { host: 'u1.example.com' })), 'No routes found for "/r/".');
    });

    it('redirects GET to the scheme a route requires, and refuses other methods', () => {
      const match = create([{ name: 'secure', path: '/account', schemes: ['https'] }]);
      assert.deepEqual(summary(match(request('GET', '/account', { scheme: 'http' }))), {
        route: 'secure',
        params: {},
        redirect: { path: '/account', scheme: 'https' },
      });
      assert.equal(notFoundMessage(match, request('POST', '/account', { scheme: 'http' })), 'No routes found for "/account".');
    });

    it('redirects to the other scheme after the trailing-slash retry', () => {
      const match = create([{ name: 'secure', path: '/account/', schemes: ['https'] }]);
      assert.deepEqual(summary(match(request('GET', '/account', { scheme: 'http' }))).redirect, { path: '/account/', scheme: 'https' });
    });
  });

  describe(`${name}: an empty table`, () => {
    it('flags `/` as the no-configuration case', () => {
      const match = create([]);
      assert.throws(() => match(request('GET', '/')), (error: unknown) => error instanceof ResourceNotFoundException && error.noConfiguration);
    });
  });
}
