import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { rawRequest, sendRaw } from '../helpers/raw-http.js';
import { SEED_BASE_URL, seedHeaders } from '../helpers/seed-request.js';
import { startDemo, type RunningDemo } from '../helpers/start-demo.js';

function decodeHeader(value: string | undefined): string {
  return decodeURIComponent(value ?? '');
}

describe('routing errors and redirects through a trusted proxy, in dev', () => {
  let demo: RunningDemo;
  before(async () => {
    demo = await startDemo();
  });
  after(() => demo.close());

  it('appends the Referer to the 404 message, in the header, the page and the log', async () => {
    const referer = 'https://app.example.test/some/page?x=1';
    const response = await rawRequest(demo.port, { path: '/robots.txt', headers: seedHeaders({ referer }) });
    const message = `No route found for "GET ${SEED_BASE_URL}/robots.txt" (from "${referer}")`;
    assert.equal(response.status, 404);
    assert.equal(decodeHeader(response.header('x-debug-exception')), message);
    assert.ok(response.body.startsWith(`<!-- ${message.replaceAll('"', '&quot;')} (404 Not Found) -->`));
    await demo.app.logger.flush();
    assert.ok(readFileSync(join(demo.projectDir, 'var', 'log', 'dev.log'), 'utf8').includes(`"${message}"`));
  });

  it('quotes a UTF-8 Referer as its bytes spell it, as the reference does', async () => {
    const response = await rawRequest(demo.port, { path: '/robots.txt', headers: seedHeaders({ referer: 'https://ex.test/café' }) });
    assert.match(response.header('x-debug-exception') ?? '', /caf%C3%A9%22%29$/);
    await demo.app.logger.flush();
    assert.ok(readFileSync(join(demo.projectDir, 'var', 'log', 'dev.log'), 'utf8').includes('(from "https://ex.test/café")'));
  });

  it('quotes the bytes of a Referer that are no UTF-8 as the reference does: the bytes in the header, U+FFFD on the page', async () => {
    const head = seedHeaders({ referer: 'https://ex.test/\xff\xfe' }).map(([name, value]) => `${name}: ${value}`);
    const response = await sendRaw(demo.port, Buffer.from(`GET /robots.txt HTTP/1.1\r\n${head.join('\r\n')}\r\n\r\n`, 'latin1'));
    assert.equal(response.status, 404);
    assert.match(response.header('x-debug-exception') ?? '', /ex\.test%2F%FF%FE%22%29$/);
    assert.ok(response.body.includes('(from &quot;https://ex.test/\ufffd\ufffd&quot;)'), response.body.slice(0, 300));
  });

  it('shows an ill-formed sequence of a Referer\'s bytes as one U+FFFD on the page, as the reference\'s htmlspecialchars() does', async () => {
    // E9 starts a three-byte character and FF cannot continue it: one sequence for PHP, two bytes in the header.
    const head = seedHeaders({ referer: 'https://ex.test/\xe9\xff' }).map(([name, value]) => `${name}: ${value}`);
    const response = await sendRaw(demo.port, Buffer.from(`GET /robots.txt HTTP/1.1\r\n${head.join('\r\n')}\r\n\r\n`, 'latin1'));
    assert.match(response.header('x-debug-exception') ?? '', /ex\.test%2F%E9%FF%22%29$/);
    assert.ok(response.body.startsWith('<!-- No route found for &quot;GET https://app.example.test/robots.txt&quot; (from &quot;https://ex.test/\ufffd&quot;) (404 Not Found) -->'), response.body.slice(0, 300));
    assert.match(response.body, /<title>[^<]*\(from &quot;https:\/\/ex\.test\/\ufffd&quot;\)/);
  });

  it('refuses an invalid forwarded host with the reference\'s 400: its class, the host as sent, a token link without a host', async () => {
    const response = await rawRequest(demo.port, { path: '/robots.txt', headers: seedHeaders({ 'x-forwarded-host': 'Bad Host' }) });
    assert.equal(response.status, 400);
    assert.equal(decodeHeader(response.header('x-debug-exception')), 'Invalid Host "bad host".');
    assert.match(response.body, /BadRequestHttpException/);
    assert.match(response.header('x-debug-token-link') ?? '', /^\/_profiler\/[0-9a-f]{6}$/);
  });

  it('logs the matched route with the request URI normalised as the reference\'s getUri() writes it', async () => {
    const response = await rawRequest(demo.port, { path: '/about?b=2&a=1&c=%7e&d=a+b&e', headers: seedHeaders() });
    assert.equal(response.status, 200);
    await demo.app.logger.flush();
    assert.ok(readFileSync(join(demo.projectDir, 'var', 'log', 'dev.log'), 'utf8').includes(`"request_uri":"${SEED_BASE_URL}/about?a=1&b=2&c=~&d=a%20b&e="`));
  });

  it('never puts the query string in the message', async () => {
    const response = await rawRequest(demo.port, { path: '/robots.txt?x=1&y=%3Cb%3E', headers: seedHeaders() });
    assert.equal(decodeHeader(response.header('x-debug-exception')), `No route found for "GET ${SEED_BASE_URL}/robots.txt"`);
  });

  it('answers 405 with Allow when the path exists for other methods, without the referer suffix', async () => {
    const response = await rawRequest(demo.port, { path: '/login', headers: seedHeaders({ referer: 'https://elsewhere.test/' }) });
    assert.equal(response.status, 405);
    assert.equal(response.header('allow'), 'POST');
    assert.equal(
      decodeHeader(response.header('x-debug-exception')),
      `No route found for "GET ${SEED_BASE_URL}/login": Method Not Allowed (Allow: POST)`,
    );
    const names = response.headerNames();
    assert.ok(names.indexOf('X-Debug-Exception-File') < names.indexOf('Allow') && names.indexOf('Allow') < names.indexOf('Vary'));
  });

  it('lists every method of the path in route order', async () => {
    const response = await rawRequest(demo.port, { path: '/items/12', headers: seedHeaders() });
    assert.equal(response.status, 405);
    assert.equal(response.header('allow'), 'PUT, PATCH, DELETE');
  });

  it('redirects /blog to the canonical /blog/ with a 301 to the absolute https URL, query kept', async () => {
    const response = await rawRequest(demo.port, { path: '/blog?page=2', headers: seedHeaders() });
    assert.equal(response.status, 301);
    assert.equal(response.header('location'), `${SEED_BASE_URL}/blog/?page=2`);
    assert.equal(response.header('cache-control'), undefined);
  });

  it('redirects /about/ to /about', async () => {
    const response = await rawRequest(demo.port, { path: '/about/', headers: seedHeaders() });
    assert.equal(response.status, 301);
    assert.equal(response.header('location'), `${SEED_BASE_URL}/about`);
  });

  it('redirects HEAD like GET, without a body', async () => {
    const response = await rawRequest(demo.port, { method: 'HEAD', path: '/blog', headers: seedHeaders() });
    assert.equal(response.status, 301);
    assert.equal(response.header('location'), `${SEED_BASE_URL}/blog/`);
    assert.equal(response.body, '');
  });

  it('never redirects other methods: POST /blog is a 404 naming the path as sent', async () => {
    const response = await rawRequest(demo.port, { method: 'POST', path: '/blog', headers: seedHeaders(), body: '' });
    assert.equal(response.status, 404);
    assert.equal(decodeHeader(response.header('x-debug-exception')), `No route found for "POST ${SEED_BASE_URL}/blog"`);
  });

  it('answers HEAD on a GET route with the headers and no body', async () => {
    const response = await rawRequest(demo.port, { method: 'HEAD', path: '/', headers: seedHeaders() });
    assert.equal(response.status, 200);
    assert.equal(response.header('content-type'), 'text/html; charset=UTF-8');
    assert.equal(response.body, '');
  });

  it('answers a HEAD 404 with the GET headers and no body', async () => {
    const response = await rawRequest(demo.port, { method: 'HEAD', path: '/robots.txt', headers: seedHeaders() });
    assert.equal(response.status, 404);
    assert.equal(decodeHeader(response.header('x-debug-exception')), `No route found for "HEAD ${SEED_BASE_URL}/robots.txt"`);
    assert.equal(response.body, '');
  });

  it('renders JSON problem details for Accept: application/json', async () => {
    const response = await rawRequest(demo.port, { path: '/robots.txt', headers: seedHeaders({ accept: 'application/json' }) });
    assert.equal(response.header('content-type'), 'application/json');
    assert.equal(response.headerNames()[0], 'Vary');
    const body = JSON.parse(response.body) as Record<string, unknown>;
    assert.equal(body.type, 'https://tools.ietf.org/html/rfc2616#section-10');
    assert.equal(body.title, 'An error occurred');
    assert.equal(body.status, 404);
    assert.equal(body.detail, `No route found for "GET ${SEED_BASE_URL}/robots.txt"`);
    assert.equal(body.class, 'NotFoundHttpException');
    assert.ok(Array.isArray(body.trace) && body.trace.length > 0);
  });

  it('renders XML problem details for Accept: application/xml', async () => {
    const response = await rawRequest(demo.port, { path: '/robots.txt', headers: seedHeaders({ accept: 'application/xml' }) });
    assert.match(response.header('content-type') ?? '', /xml/);
    assert.match(response.body, /<status>404<\/status>/);
    assert.match(response.body, /<detail>No route found for "GET https:\/\/app\.example\.test\/robots\.txt"<\/detail>|<detail>No route found for &quot;GET https:\/\/app\.example\.test\/robots\.txt&quot;<\/detail>/);
  });

  it('renders HTML for text/plain and */*', async () => {
    for (const accept of ['text/plain', '*/*']) {
      const response = await rawRequest(demo.port, { path: '/robots.txt', headers: seedHeaders({ accept }) });
      assert.equal(response.header('content-type'), 'text/html; charset=UTF-8', accept);
    }
  });

  it('escapes a <script> path and referer everywhere it shows them', async () => {
    const response = await rawRequest(demo.port, {
      path: '/<script>alert(1)</script>',
      headers: seedHeaders({ referer: 'https://evil.test/"><script>alert(2)</script>' }),
    });
    assert.equal(response.status, 404);
    assert.doesNotMatch(response.body, /<script>alert/);
    assert.match(response.body, /&lt;script>alert\(1\)&lt;\/script>|&lt;script&gt;alert\(1\)&lt;\/script&gt;/);
    assert.doesNotMatch(response.header('x-debug-exception') ?? '', /[<>"]/);
    const json = await rawRequest(demo.port, { path: '/<script>alert(1)</script>', headers: seedHeaders({ accept: 'application/json' }) });
    assert.equal((JSON.parse(json.body) as { detail: string }).detail, `No route found for "GET ${SEED_BASE_URL}/<script>alert(1)</script>"`);
  });

  it('renders a 500 with the message escaped, and logs it at CRITICAL', async () => {
    const response = await rawRequest(demo.port, { path: '/boom', headers: seedHeaders() });
    assert.equal(response.status, 500);
    assert.equal(decodeHeader(response.header('x-debug-exception')), 'Boom <b>"quoted" & \'single\'</b>');
    assert.doesNotMatch(response.body, /<b>"quoted"/);
    await demo.app.logger.flush();
    assert.match(readFileSync(join(demo.projectDir, 'var', 'log', 'dev.log'), 'utf8'), /request\.CRITICAL: Uncaught PHP Exception RuntimeException: "Boom <b>"quoted" & 'single'<\/b>" at routes\.tsx line \d+/);
  });

  it('writes the address the connection came in on in URLs of a request that names no host, as the reference its SERVER_ADDR', async () => {
    const response = await sendRaw(demo.port, 'GET /blog HTTP/1.0\r\n\r\n');
    assert.equal(response.status, 301);
    assert.equal(response.headers.find(([name]) => name.toLowerCase() === 'location')?.[1], `http://127.0.0.1:${demo.port}/blog/`);
  });
});

describe('the seed request from a peer that is not a trusted proxy', () => {
  let demo: RunningDemo;
  before(async () => {
    // Only a private range is trusted: the test's own connection from 127.0.0.1 is not.
    demo = await startDemo({ TRUSTED_PROXIES: '10.0.0.0/8' });
  });
  after(() => demo.close());

  it('ignores every forwarded header: plain http, the Host header, the peer as client', async () => {
    const response = await rawRequest(demo.port, { path: '/robots.txt', headers: seedHeaders() });
    assert.equal(decodeHeader(response.header('x-debug-exception')), 'No route found for "GET http://app.example.test/robots.txt"');
    assert.match(response.header('x-debug-token-link') ?? '', /^http:\/\/app\.example\.test\/_profiler\/[0-9a-f]{6}$/);
    const status = await rawRequest(demo.port, { path: '/api/status', headers: seedHeaders({ accept: 'application/json' }) });
    assert.deepEqual(JSON.parse(status.body), { status: 'ok', clientIp: '127.0.0.1', scheme: 'http' });
  });
});

describe('prod mode', () => {
  let demo: RunningDemo;
  before(async () => {
    demo = await startDemo({ APP_ENV: 'prod' });
  });
  after(() => demo.close());

  it('answers the seed request with the generic page and no debug headers', async () => {
    const response = await rawRequest(demo.port, { path: '/robots.txt', headers: seedHeaders() });
    assert.equal(response.status, 404);
    const names = response.headerNames().map((name) => name.toLowerCase());
    for (const name of names) assert.doesNotMatch(name, /^x-debug|^x-previous-debug|^x-robots-tag$/);
    assert.match(response.body, /<h1>Oops! An Error Occurred<\/h1>/);
    assert.match(response.body, /<h2>The server returned a (&quot;|")404 Not Found(&quot;|")\.<\/h2>/);
    assert.doesNotMatch(response.body, /robots\.txt|NotFoundHttpException|router-listener/);
  });

  it('never shows a 5xx message or a stack trace', async () => {
    const html = await rawRequest(demo.port, { path: '/boom', headers: seedHeaders() });
    const json = await rawRequest(demo.port, { path: '/boom', headers: seedHeaders({ accept: 'application/json' }) });
    assert.equal(html.status, 500);
    assert.doesNotMatch(html.body, /Boom|routes\.tsx|\.tsx?:\d+/);
    assert.deepEqual(JSON.parse(json.body), {
      type: 'https://tools.ietf.org/html/rfc2616#section-10',
      title: 'An error occurred',
      status: 500,
      detail: 'Internal Server Error',
    });
  });

  it('has no profiler: /_profiler/* is an ordinary 404', async () => {
    const response = await rawRequest(demo.port, { path: '/_profiler/latest?type=request', headers: seedHeaders() });
    assert.equal(response.status, 404);
    assert.match(response.body, /Oops! An Error Occurred/);
  });
});

describe('a request whose trusted forwarded headers conflict, under trusted hosts', () => {
  let demo: RunningDemo;
  before(async () => {
    demo = await startDemo({ TRUSTED_HEADERS: 'forwarded,x-forwarded-for', TRUSTED_HOSTS: '^app\\.example\\.test$' });
  });
  after(() => demo.close());

  it('is the 400 of the conflict, and its Host header, which no trusted host matches, reaches neither the link nor the record', async () => {
    const response = await rawRequest(demo.port, { path: '/about', headers: { host: 'evil.test', forwarded: 'for=1.1.1.1', 'x-forwarded-for': '2.2.2.2' } });
    assert.equal(response.status, 400);
    const link = response.header('x-debug-token-link') ?? '';
    assert.match(link, /^\/_profiler\/[0-9a-f]{6}$/);
    const profile = await demo.app.profiler!.loadProfile(link.slice(-6));
    assert.ok(profile !== undefined && !profile.url.includes('evil.test'), profile?.url);
  });
});
