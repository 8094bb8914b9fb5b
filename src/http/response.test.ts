import assert from 'node:assert/strict';
import { Readable } from 'node:stream';
import { describe, it } from 'node:test';
import { Response } from './response.js';

describe('Response', () => {
  it('appends Cache-Control and Date after the headers it was given, as the reference orders them', () => {
    const response = new Response('x', 404, { 'Content-Type': 'text/html; charset=UTF-8', Vary: 'Accept' });
    assert.deepEqual([...response.headers].map(([name]) => name), ['Content-Type', 'Vary', 'Cache-Control', 'Date']);
    assert.equal(response.headers.get('cache-control'), 'no-cache, private');
    assert.match(response.headers.get('date') ?? '', /^[A-Z][a-z]{2}, \d{2} [A-Z][a-z]{2} \d{4} \d{2}:\d{2}:\d{2} GMT$/);
  });

  it('keeps a header\'s position when it is set again', () => {
    const response = new Response();
    response.setHeader('X-Debug-Token', 'aaaaaa');
    response.setHeader('X-Debug-Token-Link', 'https://h/_profiler/aaaaaa');
    response.setHeader('X-Previous-Debug-Token', 'aaaaaa');
    response.setHeader('x-debug-token', 'bbbbbb');
    assert.deepEqual([...response.headers].map(([name]) => name).slice(2), ['X-Debug-Token', 'X-Debug-Token-Link', 'X-Previous-Debug-Token']);
    assert.equal(response.headers.get('X-Debug-Token'), 'bbbbbb');
  });

  it('lists the header lines flat, in the order the iterator gives them, a line per value', () => {
    const response = new Response('x', 200, { 'Content-Type': 'text/plain', 'Set-Cookie': ['a=1', 'b=2'] });
    assert.deepEqual(response.headers.flatLines(), [...response.headers].flat());
    assert.deepEqual(response.headers.flatLines().slice(0, 6), ['Content-Type', 'text/plain', 'Set-Cookie', 'a=1', 'Set-Cookie', 'b=2']);
  });

  describe('Cache-Control', () => {
    it('sorts directives and adds private unless public, private or s-maxage is given', () => {
      assert.equal(new Response().setHeader('Cache-Control', 'max-age=600').headers.get('cache-control'), 'max-age=600, private');
      assert.equal(new Response().setHeader('Cache-Control', 'public, max-age=60').headers.get('cache-control'), 'max-age=60, public');
      assert.equal(new Response().setHeader('Cache-Control', 's-maxage=10').headers.get('cache-control'), 's-maxage=10');
    });

    it('becomes "private, must-revalidate" when only Expires or Last-Modified is set', () => {
      const response = new Response();
      response.setHeader('Expires', 'Thu, 01 Jan 2099 00:00:00 GMT');
      assert.equal(response.headers.get('cache-control'), 'private, must-revalidate');
    });
  });

  describe('eventStream()', () => {
    async function* events() {
      yield 'data: 1\n\n';
    }

    it('types the stream as server-sent events and tells nginx not to buffer it', () => {
      const response = Response.eventStream(events());
      assert.equal(response.isStreamed, true);
      assert.equal(response.headers.get('content-type'), 'text/event-stream; charset=UTF-8');
      assert.equal(response.headers.get('x-accel-buffering'), 'no');
      assert.equal(response.headers.get('cache-control'), 'no-cache, private');
    });

    it('keeps the headers it is given, in any case, over its own', () => {
      const response = Response.eventStream(events(), 200, { 'x-accel-buffering': 'yes', 'Access-Control-Allow-Origin': '*' });
      assert.deepEqual(response.headers.all('x-accel-buffering'), ['yes']);
      assert.equal(response.headers.get('access-control-allow-origin'), '*');
    });
  });

  describe('redirect()', () => {
    it('answers a 301 without Cache-Control, Date then Location then a lower-case charset', () => {
      const response = Response.redirect('https://app.example.test/blog/', 301);
      assert.deepEqual([...response.headers].map(([name]) => name), ['Date', 'Location', 'Content-Type']);
      assert.equal(response.headers.get('content-type'), 'text/html; charset=utf-8');
      assert.match(String(response.body), /Redirecting to <a href="https:\/\/app.example.test\/blog\/">/);
    });

    it('escapes the target in the page body', () => {
      const response = Response.redirect('https://h/"><script>alert(1)</script>', 302);
      assert.doesNotMatch(String(response.body), /<script>/);
      assert.equal(response.headers.get('location'), 'https://h/"><script>alert(1)</script>');
    });
  });

  it('refuses a body that is neither a string, a Buffer nor a stream where the response is made', () => {
    for (const [body, what] of [
      [{ ok: true }, 'an object of type Object'],
      [new Uint16Array(2), 'an object of type Uint16Array'],
      [42, 'a number'],
      [null, 'null'],
    ] as const) {
      assert.throws(() => new Response(body as never), { name: 'TypeError', message: new RegExp(`^A Response body is a string, a Buffer or a stream .*, not ${what}: return a plain object`) }, what);
    }
    assert.equal((new Response(Buffer.from('x')).body as Buffer).length, 1);
  });

  it('takes a node Readable, a web ReadableStream or an async generator as a streamed body', () => {
    async function* chunks() {
      yield 'a';
    }
    for (const body of [Readable.from(['a']), new ReadableStream(), chunks()]) {
      const response = new Response(body);
      assert.equal(response.isStreamed, true);
      assert.equal(response.body, body);
    }
    assert.equal(new Response('text').isStreamed, false);
  });

  it("refuses a status outside 100-599 with the reference's message, when made and when changed", () => {
    for (const status of [99, 600, 999, 1000, 0, 200.5, Number.NaN]) {
      assert.throws(() => new Response('', status), { name: 'RangeError', message: `The HTTP status code "${status}" is not valid.` }, String(status));
    }
    const response = new Response('', 599);
    assert.throws(() => (response.status = 600), RangeError);
    assert.equal(response.status, 599);
  });

  it('keeps every value of a name repeated in header pairs (two Set-Cookie lines), with every helper', () => {
    const cookies: [string, string][] = [['Set-Cookie', 'a=1'], ['Set-Cookie', 'b=2']];
    for (const response of [new Response('x', 200, cookies), Response.json({}, 200, cookies), Response.html('x', 200, cookies), Response.redirect('/t', 302, cookies)]) {
      assert.deepEqual(response.headers.all('set-cookie'), ['a=1', 'b=2']);
    }
  });

  it('keeps every value of pairs that repeat a name in another case with every Response helper, as the constructor does', () => {
    const pairs: [string, string][] = [
      ['Set-Cookie', 'a=1'],
      ['set-cookie', 'b=2'],
    ];
    for (const response of [new Response('', 200, pairs), Response.html('', 200, pairs), Response.text('', 200, pairs), Response.json({}, 200, pairs), Response.redirect('/next', 302, pairs)]) {
      assert.deepEqual(response.headers.all('set-cookie'), ['a=1', 'b=2']);
      assert.deepEqual([...response.headers].filter(([name]) => name.toLowerCase() === 'set-cookie').map(([name]) => name), ['Set-Cookie', 'Set-Cookie']);
    }
  });

  it("refuses an empty URL and a status that is no redirect, with RedirectResponse's messages", () => {
    assert.throws(() => Response.redirect(''), { name: 'TypeError', message: 'Cannot redirect to an empty URL.' });
    for (const status of [200, 300, 304, 404]) assert.throws(() => Response.redirect('/next', status), { name: 'RangeError', message: `The HTTP status code is not a redirect ("${status}" given).` });
    assert.throws(() => Response.redirect('/next', 999), { message: 'The HTTP status code "999" is not valid.' });
    for (const status of [201, 301, 302, 303, 307, 308]) assert.equal(Response.redirect('/next', status).headers.get('location'), '/next');
  });

  it('drops the default Cache-Control of a 301 unless the headers given set one', () => {
    assert.equal(Response.redirect('/t', 301, { 'X-A': '1' }).headers.has('cache-control'), false);
    assert.equal(Response.redirect('/t', 301, { 'Cache-Control': 'max-age=60' }).headers.get('cache-control'), 'max-age=60, private');
  });

  it('builds JSON responses', () => {
    const response = Response.json({ ok: true }, 201);
    assert.equal(response.status, 201);
    assert.equal(response.headers.get('content-type'), 'application/json');
    assert.equal(response.body, '{"ok":true}');
    // Symfony's JsonResponse order: its Content-Type is set after Cache-Control and Date.
    assert.deepEqual([...response.headers].map(([name]) => name), ['Cache-Control', 'Date', 'Content-Type']);
    const given = Response.json({}, 200, { 'X-A': '1', 'Content-Type': 'application/problem+json' });
    assert.deepEqual([...given.headers].map(([name, value]) => `${name}: ${name === 'Date' ? '…' : value}`), ['X-A: 1', 'Content-Type: application/problem+json', 'Cache-Control: no-cache, private', 'Date: …']);
  });

  it("escapes <, >, &, ' and a string's \" as Symfony's JsonResponse does, so that the JSON is inert inside HTML", () => {
    // php -r 'echo json_encode(["k<" => "</script>&\x27\"", "b" => "a\\"], 15);' with `/` left as it is.
    const body = Response.json({ 'k<': '</script>&\'"', b: 'a\\', u: 'é/😀' }).body;
    assert.equal(body, '{"k\\u003C":"\\u003C/script\\u003E\\u0026\\u0027\\u0022","b":"a\\\\","u":"é/😀"}');
    assert.deepEqual(JSON.parse(String(body)), { 'k<': '</script>&\'"', b: 'a\\', u: 'é/😀' });
    assert.equal(Response.json(['a\\"b']).body, '["a\\\\\\u0022b"]');
  });

  it('refuses data JSON cannot write, naming Response.json(), where it sent an empty body as application/json', () => {
    for (const data of [undefined, () => 1, Symbol('s')]) assert.throws(() => Response.json(data), { name: 'TypeError', message: /^Response\.json\(\) cannot write (undefined|a function|a symbol) as JSON/ });
    const cycle: Record<string, unknown> = {};
    cycle.self = cycle;
    for (const data of [{ id: 1n }, cycle]) assert.throws(() => Response.json(data), { name: 'TypeError', message: /^Response\.json\(\) cannot write its data as JSON: / });
    assert.equal(Response.json(null).body, 'null');
  });
});
