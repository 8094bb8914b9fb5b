import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { clearCookie, readCookies, setCookie } from './cookies.js';
import { Request } from './request.js';
import { Response } from './response.js';

describe('readCookies', () => {
  it('reads the Cookie header, values decoded, the first of a repeated name winning', () => {
    const request = new Request({ method: 'GET', target: '/', headers: { host: 'localhost', cookie: 'a=1; theme=dark%20blue; a=2' } });
    assert.deepEqual({ ...readCookies(request) }, { a: '1', theme: 'dark blue' });
    assert.deepEqual({ ...readCookies(new Request({ method: 'GET', target: '/', headers: { host: 'localhost' } })) }, {});
  });

  it('reads a pair without `=` as an empty cookie and drops one without a name, as PHP fills $_COOKIE', () => {
    const request = new Request({ method: 'GET', target: '/', headers: { host: 'localhost', cookie: 'flag; =orphan; a="x y"; b=1,c=2;; \tflag=late' } });
    assert.deepEqual({ ...readCookies(request) }, { flag: '', a: '"x y"', b: '1,c=2' });
  });

  it('keeps a UTF-8 value whose last byte is that of a no-break space (à is C3 A0)', () => {
    const header = Buffer.from('city=à; b=2').toString('latin1');
    const request = new Request({ method: 'GET', target: '/', headers: { host: 'localhost', cookie: header } });
    assert.deepEqual({ ...readCookies(request) }, { city: 'à', b: '2' });
  });

  it('reads a value sent as raw UTF-8 bytes as the text they spell, as a percent-encoded one', () => {
    // node hands header bytes over one character each.
    const header = Buffer.from('city=Zürich; enc=Z%C3%BCrich').toString('latin1');
    const request = new Request({ method: 'GET', target: '/', headers: { host: 'localhost', cookie: header } });
    assert.deepEqual({ ...readCookies(request) }, { city: 'Zürich', enc: 'Zürich' });
  });

  it('decodes every escape of a value holding a byte that is no UTF-8, keeping that byte, so that setCookie writes it back as it came', () => {
    const request = new Request({ method: 'GET', target: '/', headers: { host: 'localhost', cookie: 'legacy=caf%E9%20bar; plus=a+b' } });
    const cookies = readCookies(request);
    assert.deepEqual({ ...cookies }, { legacy: 'caf\udce9 bar', plus: 'a+b' });
    const response = new Response('');
    setCookie(response, 'legacy', cookies.legacy!);
    assert.match(response.headers.all('set-cookie')[0]!, /^legacy=caf%E9%20bar;/);
  });

  it('answers only the cookies sent, never what an object inherits, with or without a Cookie header', () => {
    for (const headers of [{ host: 'localhost' }, { host: 'localhost', cookie: 'a=1' }]) {
      const cookies = readCookies(new Request({ method: 'GET', target: '/', headers }));
      assert.equal(cookies.constructor, undefined);
      assert.equal(cookies.toString, undefined);
    }
  });
});

describe('setCookie and clearCookie', () => {
  it('add Set-Cookie lines with Symfony\'s defaults, each on its own line', () => {
    const response = new Response('ok');
    setCookie(response, 'session', 'a b', { secure: true, maxAge: 3600 });
    clearCookie(response, 'old');
    assert.deepEqual(response.headers.all('set-cookie'), [
      'session=a%20b; Max-Age=3600; Path=/; HttpOnly; Secure; SameSite=Lax',
      'old=; Max-Age=0; Path=/; Expires=Thu, 01 Jan 1970 00:00:00 GMT; HttpOnly; SameSite=Lax',
    ]);
  });

  it("writes the value as Symfony's Cookie does, and a request cookie's byte that was no UTF-8 as that byte", () => {
    const header = Buffer.from([...Buffer.from('theme='), 0xff]).toString('latin1');
    const theme = readCookies(new Request({ method: 'GET', target: '/', headers: { host: 'localhost', cookie: header } })).theme!;
    const response = new Response('ok');
    setCookie(response, 'theme', theme);
    // php -r 'echo Symfony\Component\HttpFoundation\Cookie::create("a", "it\x27s (x)*!~");'
    setCookie(response, 'a', "it's (x)*!~");
    assert.deepEqual(response.headers.all('set-cookie'), ['theme=%FF; Path=/; HttpOnly; SameSite=Lax', 'a=it%27s%20%28x%29%2A%21~; Path=/; HttpOnly; SameSite=Lax']);
  });

  it('keeps the defaults of options given as undefined, and writes an empty path as /, as Symfony does', () => {
    const settings: { path?: string; httpOnly?: boolean } = {};
    const response = new Response('');
    setCookie(response, 'a', 'x', { path: settings.path, httpOnly: settings.httpOnly, sameSite: undefined });
    setCookie(response, 'b', 'x', { path: '' });
    clearCookie(response, 'a', { path: settings.path });
    assert.deepEqual(response.headers.all('set-cookie'), [
      'a=x; Path=/; HttpOnly; SameSite=Lax',
      'b=x; Path=/; HttpOnly; SameSite=Lax',
      'a=; Max-Age=0; Path=/; Expires=Thu, 01 Jan 1970 00:00:00 GMT; HttpOnly; SameSite=Lax',
    ]);
  });

  it('clear a cookie with the path, domain and partition it was set with', () => {
    const response = new Response('');
    clearCookie(response, '__Host-embed', { secure: true, partitioned: true });
    clearCookie(response, 'pref', { path: '/shop', domain: 'example.com' });
    assert.deepEqual(response.headers.all('set-cookie'), [
      '__Host-embed=; Max-Age=0; Path=/; Expires=Thu, 01 Jan 1970 00:00:00 GMT; HttpOnly; Secure; Partitioned; SameSite=Lax',
      'pref=; Max-Age=0; Domain=example.com; Path=/shop; Expires=Thu, 01 Jan 1970 00:00:00 GMT; HttpOnly; SameSite=Lax',
    ]);
  });

  it('refuses a name that would break the header, in the controller that sets it, saying which and why', () => {
    assert.throws(() => setCookie(new Response(''), 'bad name;', 'x'), TypeError);
    assert.throws(() => setCookie(new Response(''), '', 'x'), { name: 'TypeError', message: 'The cookie name cannot be empty.' });
    for (const [name, shown] of [['a=b', 'a=b'], ['a,b', 'a,b'], ['a\r\nX-Evil: 1', 'a\\u000d\\u000aX-Evil: 1'], ['café', 'café'], ['a\tb', 'a\\u0009b']]) {
      assert.throws(() => setCookie(new Response(''), name!, 'x'), {
        name: 'TypeError',
        message: `The cookie name "${shown}" contains invalid characters: a cookie name is printable ASCII without spaces, "=", ";" or ",".`,
      });
    }
  });

  it('refuses what makes a browser drop a __Host- or __Secure- cookie, and sets one as a browser keeps it', () => {
    const refusals: [string, Parameters<typeof setCookie>[3], string][] = [
      ['__Host-sid', { domain: 'example.com' }, 'The cookie "__Host-sid" cannot be set with a domain: a browser keeps a __Host- cookie only Secure, with Path=/ and no Domain.'],
      ['__host-sid', { path: '/app' }, 'The cookie "__host-sid" cannot be set with the path "/app": a browser keeps a __Host- cookie only Secure, with Path=/ and no Domain.'],
      ['__Host-sid', { secure: false }, 'The cookie "__Host-sid" cannot be set with `secure: false`: a browser keeps a __Host- cookie only Secure, with Path=/ and no Domain.'],
      ['__Secure-sid', { secure: false }, 'The cookie "__Secure-sid" cannot be set with `secure: false`: a browser keeps a __Secure- cookie only Secure.'],
    ];
    for (const [name, options, message] of refusals) assert.throws(() => setCookie(new Response(''), name, 'x', options), { name: 'TypeError', message });
    assert.throws(() => clearCookie(new Response(''), '__Host-sid', { path: '/app' }), TypeError);
    const response = new Response('');
    setCookie(response, '__Host-sid', 'x', { secure: true });
    setCookie(response, '__Secure-sid', 'x', { secure: true, domain: 'example.com', path: '/app' });
    assert.deepEqual(response.headers.all('set-cookie'), [
      '__Host-sid=x; Path=/; HttpOnly; Secure; SameSite=Lax',
      '__Secure-sid=x; Domain=example.com; Path=/app; HttpOnly; Secure; SameSite=Lax',
    ]);
  });

  it('refuses an invalid attribute naming the cookie and the attribute, its control characters escaped', () => {
    assert.throws(() => setCookie(new Response(''), 'a', 'x', { path: '/a\nb' }), { message: 'The cookie "a" cannot be set: option path is invalid: /a\\u000ab.' });
    assert.throws(() => setCookie(new Response(''), 'a', 'x', { domain: 'example.com; Secure' }), { message: 'The cookie "a" cannot be set: option domain is invalid: example.com; Secure.' });
    assert.throws(() => setCookie(new Response(''), 'a', 'x', { sameSite: 'sometimes' as 'lax' }), { message: 'The cookie "a" cannot be set: option sameSite is invalid: sometimes.' });
  });
});
