import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { Request } from '../http/request.js';
import { parseRedirectCookie, type RequestData } from './collectors/request-collector.js';
import { bodyOf, createProfiledApp } from './profiled-app.fixture.js';

describe('RedirectCookieListener', () => {
  it('describes a profiled redirect in an sf_redirect cookie, sent as the last header', async () => {
    const { get } = createProfiledApp();
    const response = await get('/blog');
    const headers = [...response.headers];
    const [name, value] = headers.at(-1)!;
    assert.equal(name, 'Set-Cookie');
    assert.match(value, /^sf_redirect=[^;]+; path=\/; httponly; samesite=lax$/);
    const raw = value.slice('sf_redirect='.length, value.indexOf(';'));
    assert.match(decodeURIComponent(raw), /^\{"token":"000001","route":"blog_index","method":"GET",/);
    assert.deepEqual(parseRedirectCookie(raw), {
      token: '000001', route: 'blog_index', method: 'GET', controller: 'RedirectController', status_code: 301, status_text: 'Moved Permanently',
    });
  });

  it('goes by the status alone, as Response::isRedirect(): a 201 without Location sets the cookie too', async () => {
    const { get } = createProfiledApp();
    const response = await get('/created');
    assert.equal(response.status, 201);
    const raw = /^sf_redirect=([^;]+);/.exec(response.headers.get('set-cookie') ?? '')?.[1] ?? '';
    assert.equal(parseRedirectCookie(raw)?.status_code, 201);
  });

  it('writes the cookie\'s JSON as json_encode does: non-ASCII as \\uXXXX, then percent-encoded', async () => {
    const { get } = createProfiledApp();
    const cookie = (await get('/cafe')).headers.get('set-cookie') ?? '';
    assert.match(cookie, /%22route%22%3A%22t_caf%5Cu00e9%22/);
    assert.equal(parseRedirectCookie(/^sf_redirect=([^;]+);/.exec(cookie)![1]!)?.route, 't_café');
  });

  it('marks the cookie secure for an https request', async () => {
    const { kernel } = createProfiledApp();
    const response = await kernel.handle(new Request({ method: 'GET', target: '/blog', headers: { host: 'localhost' }, encrypted: true }));
    assert.match(response.headers.get('set-cookie') ?? '', /; path=\/; secure; httponly; samesite=lax$/);
  });

  it('hands the redirect to the next page, which shows it and expires the cookie', async () => {
    const { get, profiler } = createProfiledApp();
    const redirect = await get('/blog');
    const cookie = redirect.headers.get('set-cookie')!.split(';')[0]!;
    const page = await get('/blog/', { cookie });
    assert.equal(page.headers.get('set-cookie'), 'sf_redirect=deleted; expires=Thu, 15 Jan 2026 07:59:59 GMT; Max-Age=0; path=/; httponly');
    const data = profiler.store.get(page.headers.get('x-debug-token')!)?.collectors.request as RequestData;
    assert.equal(data.redirect?.token, redirect.headers.get('x-debug-token'));
    assert.match(bodyOf(page), /Redirected from blog_index/);
  });

  it('ignores a forged cookie that does not name a token', async () => {
    assert.equal(parseRedirectCookie(encodeURIComponent('{"token":"../../x"}')), undefined);
    assert.equal(parseRedirectCookie('%7Bnot json'), undefined);
  });

  it('neither sets nor clears anything on unprofiled profiler pages', async () => {
    const { get } = createProfiledApp();
    const response = await get('/_profiler/', { cookie: 'sf_redirect=x' });
    assert.equal(response.headers.has('set-cookie'), false);
  });
});
