import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { Request } from './request.js';
import { splitHostPort } from './request-target.js';
import { RequestStack } from '../kernel/request-stack.js';

describe('Request', () => {
  it('reads a header record built by hand whatever the case of its names, as node keys its own', () => {
    const request = new Request({ method: 'POST', target: '/x', headers: { Host: 'example.com', Accept: 'application/json', 'X-HTTP-Method-Override': 'PUT' } });
    assert.equal(request.host, 'example.com');
    assert.equal(request.header('accept'), 'application/json');
    assert.equal(request.method, 'PUT');
  });

  it('keeps the raw path, still percent-encoded, apart from the query string', () => {
    const request = new Request({ method: 'get', target: '/a%20b/%3Cx%3E?q=1&r=2' });
    assert.equal(request.method, 'GET');
    assert.equal(request.pathInfo, '/a%20b/%3Cx%3E');
    assert.equal(request.queryString, 'q=1&r=2');
    assert.equal(request.query.get('r'), '2');
  });

  it('reads the path and query of any request target as the reference does: no fragment, no scheme and authority', () => {
    const cases: [string, string, string][] = [
      ['/about#frag', '/about', ''],
      ['/about/?q=1#x', '/about/', 'q=1'],
      ['https://app.example.test/about/?x=1', '/about/', 'x=1'],
      ['http://other.test:8080/a%20b?c#d', '/a%20b', 'c'],
      ['https://app.example.test', '/', ''],
      ['http://x?a=1', '/', 'a=1'],
      ['*', '/*', ''],
    ];
    for (const [target, path, query] of cases) {
      const request = new Request({ method: 'GET', target, headers: { host: 'app.example.test' } });
      assert.deepEqual([request.pathInfo, request.queryString], [path, query], target);
    }
    // The host is still the Host header's.
    assert.equal(new Request({ method: 'GET', target: 'http://other.test/x', headers: { host: 'app.example.test' } }).uri, 'http://app.example.test/x');
  });

  it('honours X-HTTP-Method-Override on POST only', () => {
    const post = new Request({ method: 'POST', target: '/', headers: { 'x-http-method-override': 'patch' } });
    const get = new Request({ method: 'GET', target: '/', headers: { 'x-http-method-override': 'DELETE' } });
    assert.equal(post.method, 'PATCH');
    assert.equal(post.realMethod, 'POST');
    assert.equal(get.method, 'GET');
  });

  it('builds absolute URLs from the Host header without a default port', () => {
    const request = new Request({ method: 'GET', target: '/robots.txt?x=1', headers: { host: 'App.Example.test' } });
    assert.equal(request.uriForPath(request.pathInfo), 'http://app.example.test/robots.txt');
    assert.equal(request.uri, 'http://app.example.test/robots.txt?x=1');
  });

  it('keeps a non-default port in the absolute URL', () => {
    const request = new Request({ method: 'GET', target: '/', headers: { host: 'localhost:8000' } });
    assert.equal(request.schemeAndHttpHost, 'http://localhost:8000');
  });

  it('duplicates itself for a sub-request with new attributes and a parent link', () => {
    const request = new Request({ method: 'POST', target: '/login?next=/', headers: { host: 'h' } });
    request.attributes.route = 'login';
    const sub = request.duplicate({ attributes: { controllerName: 'ErrorController' }, method: 'GET' });
    assert.equal(sub.method, 'GET');
    assert.equal(sub.pathInfo, '/login');
    assert.equal(sub.queryString, 'next=/');
    assert.equal(sub.parent, request);
    assert.equal(sub.attributes.route, undefined);
    assert.equal(sub.header('host'), 'h');
  });

  it('duplicates itself for a sub-request to another URL, which the router matches, still linked to its parent and stack', () => {
    const request = new Request({ method: 'GET', target: '/cart', headers: { host: 'h', cookie: 'session=1' } });
    request.stack = new RequestStack();
    const sub = request.duplicate({ target: '/fragments/basket?compact=1' });
    assert.deepEqual([sub.pathInfo, sub.queryString, sub.header('cookie')], ['/fragments/basket', 'compact=1', 'session=1']);
    assert.equal(sub.parent, request);
    assert.equal(sub.stack, request.stack);
    assert.equal(sub.attributes.controller, undefined);
  });

  it('reads its body once, from a buffer, a function or a body source, and an empty body when it has none', async () => {
    let reads = 0;
    const source = { read: async () => Buffer.from(`read ${++reads}`) };
    const request = new Request({ method: 'POST', target: '/', body: source });
    assert.equal((await request.body()).toString(), 'read 1');
    assert.equal((await request.body()).toString(), 'read 1');
    assert.equal(reads, 1);
    assert.equal((await new Request({ method: 'POST', target: '/', body: async () => Buffer.from('fn') }).body()).toString(), 'fn');
    assert.equal((await new Request({ method: 'POST', target: '/', body: Buffer.from('buffer') }).body()).toString(), 'buffer');
    assert.equal((await new Request({ method: 'GET', target: '/' }).body()).length, 0);
  });

  it('takes a body given as text, as a test handing a form or JSON to app.handle() writes it, in UTF-8', async () => {
    const request = new Request({ method: 'POST', target: '/', body: '{"title":"Café"}' });
    assert.deepEqual(JSON.parse((await request.body()).toString('utf8')), { title: 'Café' });
    assert.equal(request.bufferedBody?.length, 17);
  });

  it('reads its body once even when asked twice at once, and gives every later caller the failure of a failed read', async () => {
    let reads = 0;
    const tooLarge = new Error('too large');
    const source = { read: async () => (++reads === 1 ? Promise.reject(tooLarge) : Buffer.from('the rest')) };
    const request = new Request({ method: 'POST', target: '/', body: source });
    const [first, second] = await Promise.allSettled([request.body(), request.body()]);
    assert.deepEqual([first, second], [{ status: 'rejected', reason: tooLarge }, { status: 'rejected', reason: tooLarge }]);
    await assert.rejects(request.body(), tooLarge);
    assert.equal(reads, 1);
  });

  it('splits host and port, brackets kept for IPv6', () => {
    assert.deepEqual(splitHostPort('[::1]:8080', 'http'), { host: '[::1]', port: 8080 });
    assert.deepEqual(splitHostPort('[::1]', 'https'), { host: '[::1]', port: 443 });
    assert.deepEqual(splitHostPort('Example.COM', 'http'), { host: 'example.com', port: 80 });
  });
});
