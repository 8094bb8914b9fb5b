import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { Kernel } from '../kernel/kernel.js';
import { Request, type RequestInit } from './request.js';
import { Response } from './response.js';
import { ResponseListener } from './response-listener.js';
import { clearCookie, setCookie } from './cookies.js';

async function handle(makeResponse: () => Response, init: Partial<RequestInit> = {}, type: 'main' | 'sub' = 'main'): Promise<Response> {
  const kernel = new Kernel();
  kernel.dispatcher.addSubscriber(new ResponseListener());
  kernel.dispatcher.on('request', (event) => {
    event.request.attributes.controller = makeResponse;
  });
  return kernel.handle(new Request({ method: 'GET', target: '/', ...init }), { type });
}

describe('ResponseListener', () => {
  it('adds text/html; charset=UTF-8 when the response has no Content-Type', async () => {
    const response = await handle(() => new Response('<p>hi</p>'));
    assert.equal(response.headers.get('content-type'), 'text/html; charset=UTF-8');
  });

  it('appends the charset to a text type that lacks one, and leaves other types alone', async () => {
    assert.equal((await handle(() => new Response('x', 200, { 'Content-Type': 'text/plain' }))).headers.get('content-type'), 'text/plain; charset=UTF-8');
    assert.equal((await handle(() => new Response('x', 200, { 'Content-Type': 'text/csv; charset=latin1' }))).headers.get('content-type'), 'text/csv; charset=latin1');
    assert.equal((await handle(() => new Response('{}', 200, { 'Content-Type': 'application/json' }))).headers.get('content-type'), 'application/json');
  });

  it('takes the Content-Type from the request format when the response has none', async () => {
    const kernel = new Kernel();
    kernel.dispatcher.addSubscriber(new ResponseListener());
    kernel.dispatcher.on('request', (event) => {
      event.request.attributes.format = 'xml';
      event.request.attributes.controller = () => new Response('<a/>');
    });
    const response = await kernel.handle(new Request({ method: 'GET', target: '/' }));
    assert.equal(response.headers.get('content-type'), 'text/xml; charset=UTF-8');
  });

  it('gives a format that only an object property is named after (a route\'s `{_format}` in the URL) the HTML type', async () => {
    for (const format of ['constructor', 'toString', '__proto__']) {
      const kernel = new Kernel();
      kernel.dispatcher.addSubscriber(new ResponseListener());
      kernel.dispatcher.on('request', (event) => {
        event.request.attributes.format = format;
        event.request.attributes.controller = () => new Response('x');
      });
      const response = await kernel.handle(new Request({ method: 'GET', target: '/' }));
      assert.equal(response.headers.get('content-type'), 'text/html; charset=UTF-8', format);
    }
  });

  for (const status of [101, 204, 304]) {
    it(`removes the body, Content-Type and Content-Length of a ${status}`, async () => {
      const response = await handle(() => new Response('body', status, { 'Content-Type': 'text/plain', 'Content-Length': '4' }));
      assert.equal(response.body, '');
      assert.equal(response.headers.has('content-type'), false);
      assert.equal(response.headers.has('content-length'), false);
    });
  }

  it('empties a HEAD response but keeps its headers and a Content-Length that was set', async () => {
    const response = await handle(() => new Response('body', 404, { 'Content-Length': '4' }), { method: 'HEAD' });
    assert.equal(response.body, '');
    assert.equal(response.status, 404);
    assert.equal(response.headers.get('content-length'), '4');
    assert.equal(response.headers.get('content-type'), 'text/html; charset=UTF-8');
  });

  it('drops Content-Length when Transfer-Encoding is set', async () => {
    const response = await handle(() => new Response('body', 200, { 'Transfer-Encoding': 'chunked', 'Content-Length': '4' }));
    assert.equal(response.headers.has('content-length'), false);
  });

  it('adds Pragma and Expires for an HTTP/1.0 request when Cache-Control says no-cache, as the reference does', async () => {
    const response = await handle(() => new Response('x'), { httpVersion: '1.0' });
    assert.equal(response.headers.get('pragma'), 'no-cache');
    assert.equal(response.headers.get('expires'), '-1');
    assert.equal(response.headers.get('cache-control'), 'private, must-revalidate');
    assert.deepEqual([...response.headers].map(([name]) => name).filter((name) => /pragma|expires/i.test(name)), ['pragma', 'expires']);
  });

  it('adds no HTTP/1.0 headers for HTTP/1.1 or a cacheable response', async () => {
    assert.equal((await handle(() => new Response('x'))).headers.has('pragma'), false);
    assert.equal((await handle(() => new Response('x', 200, { 'Cache-Control': 'public, max-age=60' }), { httpVersion: '1.0' })).headers.has('pragma'), false);
  });

  it('leaves sub-request responses untouched', async () => {
    const response = await handle(() => new Response('x'), { method: 'HEAD' }, 'sub');
    assert.equal(response.body, 'x');
    assert.equal(response.headers.has('content-type'), false);
  });
});

describe('ResponseListener and cookies', () => {
  function withCookies(): Response {
    const response = new Response('ok');
    setCookie(response, 'session', 'abc');
    setCookie(response, 'plain', 'x', { secure: false });
    response.headers.append('Set-Cookie', 'raw=1; Path=/');
    clearCookie(response, 'old', { path: '/app' });
    response.headers.set('X-Last', '1');
    return response;
  }

  it('makes the cookies set without a secure option Secure on a secure request, as Response::prepare() does', async () => {
    const response = await handle(withCookies, { encrypted: true });
    assert.deepEqual(response.headers.all('set-cookie'), [
      'session=abc; Path=/; HttpOnly; Secure; SameSite=Lax',
      'plain=x; Path=/; HttpOnly; SameSite=Lax',
      'raw=1; Path=/',
      'old=; Max-Age=0; Path=/app; Expires=Thu, 01 Jan 1970 00:00:00 GMT; HttpOnly; Secure; SameSite=Lax',
    ]);
    // In its place among the headers, as it was set.
    const names = response.headers.flatLines().filter((_, i) => i % 2 === 0);
    assert.ok(names.lastIndexOf('Set-Cookie') < names.indexOf('X-Last'));
  });

  it('leaves them as set on a plain HTTP request, and on a sub-request', async () => {
    for (const response of [await handle(withCookies), await handle(withCookies, { encrypted: true }, 'sub')]) {
      assert.deepEqual(response.headers.all('set-cookie'), [
        'session=abc; Path=/; HttpOnly; SameSite=Lax',
        'plain=x; Path=/; HttpOnly; SameSite=Lax',
        'raw=1; Path=/',
        'old=; Max-Age=0; Path=/app; Expires=Thu, 01 Jan 1970 00:00:00 GMT; HttpOnly; SameSite=Lax',
      ]);
    }
  });
});
