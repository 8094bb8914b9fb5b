import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { h } from 'preact';
import { renderToString } from 'preact-render-to-string';
import { readFiles, readForm } from '../../http/read-body.js';
import { Request } from '../../http/request.js';
import { Response } from '../../http/response.js';
import { RequestStack } from '../../kernel/request-stack.js';
import { TEST_CONFIG } from '../profiled-app.fixture.js';
import { ConfigCollector, type ConfigData } from './config-collector.js';
import { MASK } from '../../config/mask-secrets.js';
import { RequestCollector } from './request-collector.js';
import { ResponseCollector } from './response-collector.js';
import type { Profile } from '../profile.js';
import { RequestPanel } from '../ui/views/panels/request.js';

function requestWith(headers: Record<string, string>, target = '/'): Request {
  const request = new Request({ method: 'GET', target, headers: { host: 'app.example.test', ...headers } });
  request.stack = new RequestStack();
  request.stack.push(request);
  return request;
}

describe('RequestCollector', () => {
  it("records the request's other attributes, an application's included, masked once the response is over, and the request panel lists them", () => {
    const request = requestWith({});
    Object.assign(request.attributes, { route: 'home', format: 'json', listenerSamples: [1, 2], user: { name: 'alice', apiToken: 't0k3n' } });
    const collector = new RequestCollector();
    const collected = collector.collect(request, new Response());
    assert.deepEqual(Object.keys(collected.attributes ?? {}), ['format', 'user']);
    const data = collector.lateCollect(collected, request);
    assert.deepEqual(data.attributes, { format: 'json', user: { name: 'alice', apiToken: MASK } });
    assert.equal(collector.collect(requestWith({}), new Response()).attributes, undefined);
    const profile: Profile = { token: 'abc123', parent: undefined, children: [], time: 0, method: 'GET', url: 'https://localhost/', ip: '127.0.0.1', statusCode: 200, type: 'request', collectors: {} };
    for (const shown of [collected, data]) {
      const html = renderToString(h(RequestPanel, { profile, data: shown, base: '', query: new URLSearchParams(), routes: undefined }));
      assert.match(html, /<th><span>request_type<\/span><\/th><td>main<\/td><\/tr><tr><th><span>format<\/span><\/th><td>json<\/td>/);
      assert.ok(html.includes(`<th><span>user</span></th><td>{&quot;name&quot;:&quot;alice&quot;,&quot;apiToken&quot;:&quot;${MASK}&quot;}</td>`), html);
      assert.doesNotMatch(html, /listenerSamples/);
    }
  });

  it('records the connection the request came on, and the request panel shows it', () => {
    const request = new Request({ method: 'GET', target: '/', remoteAddress: '10.0.0.2', remotePort: 50123, localPort: 8443, encrypted: true, httpVersion: '1.0' });
    const data = new RequestCollector().collect(request, new Response());
    assert.deepEqual([data.remotePort, data.localPort, data.httpVersion, data.encrypted], [50123, 8443, '1.0', true]);
    const profile: Profile = { token: 'abc123', parent: undefined, children: [], time: 0, method: 'GET', url: 'https://localhost/', ip: '10.0.0.2', statusCode: 200, type: 'request', collectors: {} };
    const html = renderToString(h(RequestPanel, { profile, data, base: '', query: new URLSearchParams(), routes: undefined }));
    assert.match(html, /<th><span>remote_port<\/span><\/th><td>50123<\/td>/);
    assert.match(html, /<th><span>server_port<\/span><\/th><td>8443<\/td>/);
    assert.match(html, /<th><span>protocol<\/span><\/th><td>HTTP\/1\.0 over TLS<\/td>/);
  });

  it('lists a cookie sent without `=` as the reference does, as an empty cookie', () => {
    const data = new RequestCollector().collect(requestWith({ cookie: 'consent; theme=dark' }, '/'), new Response());
    assert.deepEqual(Object.keys(data.cookies), ['consent', 'theme']);
  });

  it('masks credentials in headers, cookies and query parameters', () => {
    const request = requestWith(
      { authorization: 'Bearer abc', cookie: 'PHPSESSID=s3cr3t; theme=dark; sf_redirect=%7B%22token%22%3A%22abc123%22%7D', 'x-api-key': 'k', 'x-csrf-token': 't', accept: 'text/html' },
      '/?password=hunter2&page=2&api_key=x',
    );
    const data = new RequestCollector().collect(request, new Response());
    assert.equal(data.headers.authorization, MASK);
    assert.equal(data.headers.cookie, MASK);
    assert.equal(data.headers['x-api-key'], MASK);
    assert.equal(data.headers['x-csrf-token'], MASK);
    assert.equal(data.headers.accept, 'text/html');
    // Every cookie but the profiler's own redirect memory, which the reference shows.
    assert.deepEqual(data.cookies, { PHPSESSID: MASK, theme: MASK, sf_redirect: '%7B%22token%22%3A%22abc123%22%7D' });
    assert.deepEqual({ ...data.query }, { password: MASK, page: '2', api_key: MASK });
    // Normalised as the reference's getUri() writes it: parameters sorted.
    assert.equal(data.url, 'http://app.example.test/?api_key=******&page=2&password=******');
    assert.doesNotMatch(JSON.stringify(data), /hunter2|s3cr3t|Bearer/);
  });

  // node hands header bytes over one character each: a UTF-8 `café` arrives as `cafÃ©`.
  it('records headers as the text their bytes spell, as the error message quotes them', () => {
    const request = requestWith({ 'user-agent': 'caf\u00c3\u00a9', referer: 'https://x.test/\u00ff', accept: 'text/html' }, '/');
    const data = new RequestCollector().collect(request, new Response());
    assert.equal(data.headers['user-agent'], 'café');
    assert.equal(data.headers.referer, 'https://x.test/\udcff');
    assert.equal(data.headers.accept, 'text/html');
  });

  it('collects a repeated query parameter as a list, in order, each value masked as a single one is', () => {
    const data = new RequestCollector().collect(requestWith({}, '/?a=1&next=https://u:pw1@h.test/&a=2&next=x&a=3'), new Response());
    assert.deepEqual(data.query.a, ['1', '2', '3']);
    assert.deepEqual(data.query.next, ['https://u:******@h.test/', 'x']);
  });

  describe('when the request carries a form', () => {
    const post = (type: string, body: string) => {
      const request = new Request({ method: 'POST', target: '/login', headers: { host: 'app.example.test', 'content-type': type, 'content-length': String(body.length) }, body: async () => Buffer.from(body) });
      request.stack = new RequestStack();
      request.stack.push(request);
      return request;
    };

    it('collects the fields of a urlencoded body the application read as POST parameters, secrets masked', async () => {
      const request = post('application/x-www-form-urlencoded', 'username=ada&password=hunter2&tag=a&tag=b&_csrf_token=c5rf');
      await readForm(request);
      const data = new RequestCollector().collect(request, new Response());
      assert.deepEqual({ ...(data.postParameters as object) }, { username: 'ada', password: MASK, tag: ['a', 'b'], _csrf_token: MASK });
      assert.doesNotMatch(JSON.stringify(data), /hunter2|c5rf/);
    });

    it('shows the fields of a urlencoded body as readForm() read them, in the charset the Content-Type names', async () => {
      const request = post('application/x-www-form-urlencoded; charset=ISO-8859-1', 'name=Ren%E9');
      assert.equal((await readForm(request)).get('name'), 'René');
      assert.deepEqual({ ...(new RequestCollector().collect(request, new Response()).postParameters as object) }, { name: 'René' });
    });

    it('collects the text fields of a multipart body the application read', async () => {
      const body = ['--b', 'Content-Disposition: form-data; name="email"', '', 'ada@example.test', '--b', 'Content-Disposition: form-data; name="api_key"', '', 'K3Y', '--b--', ''].join('\r\n');
      const request = post('multipart/form-data; boundary=b', body);
      await readForm(request);
      const data = new RequestCollector().collect(request, new Response());
      assert.deepEqual({ ...(data.postParameters as object) }, { email: 'ada@example.test', api_key: MASK });
    });

    it('lists the files of a multipart body the application read, without their bytes, after the response', async () => {
      const body = ['--b', 'Content-Disposition: form-data; name="avatar"; filename="me.png"', 'Content-Type: image/png', '', 'PNGDATA', '--b--', ''].join('\r\n');
      const request = post('multipart/form-data; boundary=b', body);
      const collector = new RequestCollector();
      assert.equal(collector.lateCollect(collector.collect(request, new Response()), request).files, 'unread');
      await readFiles(request);
      const data = collector.lateCollect(collector.collect(request, new Response()), request);
      assert.deepEqual(data.files, [{ field: 'avatar', filename: 'me.png', type: 'image/png', size: 7 }]);
      assert.deepEqual(data.content, { withheld: 'form', bytes: body.length });
      assert.doesNotMatch(JSON.stringify(data), /PNGDATA/);
    });

    it('records no file list whose names and types are over 64 KiB, as it records no such fields', async () => {
      const parts = Array.from({ length: 80 }, (_, i) => [`--b`, `Content-Disposition: form-data; name="u${i}"; filename="${i}-${'n'.repeat(1000)}.txt"`, '', 'x'].join('\r\n'));
      const request = post('multipart/form-data; boundary=b', [...parts, '--b--', ''].join('\r\n'));
      await readFiles(request);
      const collector = new RequestCollector();
      assert.equal(collector.lateCollect(collector.collect(request, new Response()), request).files, 'tooLarge');
    });

    it('says a form body the application did not read is unread, and reads nothing itself', () => {
      let reads = 0;
      const request = new Request({ method: 'POST', target: '/login', headers: { 'content-type': 'application/x-www-form-urlencoded', 'content-length': '3' }, body: async () => (reads++, Buffer.from('a=1')) });
      assert.equal(new RequestCollector().collect(request, new Response()).postParameters, 'unread');
      assert.equal(reads, 0);
    });

    it('records no POST parameters for a body that is no form', async () => {
      const request = post('application/json', '{"password":"hunter2"}');
      await request.body();
      assert.equal(new RequestCollector().collect(request, new Response()).postParameters, undefined);
    });
  });

  it('reports no session, and the stateless check of the main request', () => {
    const main = requestWith({});
    main.attributes.stateless = true;
    const sub = main.duplicate();
    main.stack!.push(sub);
    sub.type = 'sub';
    const data = new RequestCollector().collect(sub, new Response());
    assert.equal(data.sessionUsages, 0);
    assert.equal(data.hasSession, false);
    assert.equal(data.statelessCheck, true);
    assert.equal(new RequestCollector().collect(requestWith({}), new Response()).statelessCheck, false);
  });

  describe('Server Parameters', () => {
    const profileWith = (config?: ConfigData): Profile => ({
      token: 'abc123',
      parent: undefined,
      children: [],
      time: 0,
      method: 'GET',
      url: 'http://app.example.test/',
      ip: '127.0.0.1',
      statusCode: 200,
      type: 'request',
      collectors: config === undefined ? {} : { config },
    });
    const data = new RequestCollector().collect(requestWith({}), new Response());
    const panelOf = (profile: Profile) => renderToString(h(RequestPanel, { profile, data, base: '', query: new URLSearchParams(), routes: undefined }));

    it('lists the environment sorted by name, secrets masked, and the request panel shows it escaped', () => {
      const env = { PORT: '8000', APP_SECRET: 's3cr3t', DATABASE_URL: 'postgres://app:pw1@db/app', GREETING: '<b>hi</b> & "bye"', API_TOKEN: '', UNSET: undefined };
      const config = new ConfigCollector(TEST_CONFIG, { env }).collect();
      assert.deepEqual(Object.entries(config.serverParameters ?? {}), [
        ['API_TOKEN', ''],
        ['APP_SECRET', MASK],
        ['DATABASE_URL', `postgres://app:${MASK}@db/app`],
        ['GREETING', '<b>hi</b> & "bye"'],
        ['PORT', '8000'],
      ]);
      const html = panelOf(profileWith(config));
      assert.match(html, /<h3>Server Parameters<\/h3><h4>Defined in \.env<\/h4><p class="empty">\(no data\)<\/p><h4>Defined as regular env variables<\/h4><table><tbody><tr><th><span>API_TOKEN<\/span><\/th><td><\/td><\/tr><tr><th><span>APP_SECRET<\/span><\/th><td>\*{6}<\/td>/);
      assert.match(html, /<th><span>GREETING<\/span><\/th><td>&lt;b>hi&lt;\/b> &amp; &quot;bye&quot;<\/td>/);
      assert.doesNotMatch(html, /s3cr3t|pw1|<b>hi/);
    });

    it("snapshots the process's environment once, in the configuration's data that every record shares, serialised once", () => {
      const first = new ConfigCollector(TEST_CONFIG).collect();
      const second = new ConfigCollector(TEST_CONFIG).collect();
      assert.ok(Object.isFrozen(first.serverParameters));
      assert.equal(second.serverParameters, first.serverParameters);
      assert.equal(first.serverParameters?.PATH, process.env.PATH);
      // The request's own data does not carry it: each record would write it again.
      assert.ok(!JSON.stringify(data).includes(JSON.stringify(process.env.PATH)));
    });

    it('lists the variables of the .env files apart, first, secrets masked, as the reference\'s "Defined in .env"', () => {
      const config = new ConfigCollector({ ...TEST_CONFIG, dotenvVars: { TRUSTED_PROXIES: 'loopback', APP_SECRET: 'from-dotenv' } }, { env: { PORT: '8000' } }).collect();
      assert.deepEqual(Object.entries(config.dotenvParameters ?? {}), [
        ['APP_SECRET', MASK],
        ['TRUSTED_PROXIES', 'loopback'],
      ]);
      // The configuration's own list does not repeat them.
      assert.ok(!JSON.stringify(config.config).includes('loopback'));
      const html = panelOf(profileWith(config));
      assert.match(html, /<h4>Defined in \.env<\/h4><table><tbody><tr><th><span>APP_SECRET<\/span><\/th><td>\*{6}<\/td><\/tr><tr><th><span>TRUSTED_PROXIES<\/span><\/th><td>loopback<\/td><\/tr><\/tbody><\/table><h4>Defined as regular env variables<\/h4><table><tbody><tr><th><span>PORT<\/span><\/th>/);
      assert.doesNotMatch(html, /from-dotenv/);
      // No .env variable: the reference's words for an empty list.
      assert.match(panelOf(profileWith(new ConfigCollector(TEST_CONFIG, { env: {} }).collect())), /<h4>Defined in \.env<\/h4><p class="empty">\(no data\)<\/p>/);
    });

    it('says a record made before the environment was recorded has none', () => {
      assert.match(panelOf(profileWith()), /<h4>Defined in \.env<\/h4><p class="empty">Not recorded for this request\.<\/p><h4>Defined as regular env variables<\/h4><p class="empty">Not recorded for this request\.<\/p>/);
    });
  });

  it('gives the size of a chunked body the application read, and tells one left unread from no body', async () => {
    const profile: Profile = { token: 'abc123', parent: undefined, children: [], time: 0, method: 'POST', url: 'https://localhost/', ip: '127.0.0.1', statusCode: 200, type: 'request', collectors: {} };
    const sizeShown = async (read: boolean) => {
      const request = new Request({ method: 'POST', target: '/upload', headers: { host: 'a.test', 'content-type': 'text/plain', 'transfer-encoding': 'chunked' }, body: async () => Buffer.alloc(70_000, 'a') });
      if (read) await request.body();
      const collector = new RequestCollector();
      const data = collector.lateCollect(collector.collect(request, new Response()), request);
      const html = renderToString(h(RequestPanel, { profile, data, base: '', query: new URLSearchParams(), routes: undefined }));
      return /<th><span>Request body size<\/span><\/th><td>([^<]*)<\/td>/.exec(html)?.[1];
    };
    assert.equal(await sizeShown(true), '70000 bytes');
    assert.equal(await sizeShown(false), 'Unknown: sent in chunks, not read');
  });

  it('tells a body whose read failed (over the body limit) from one the application never read', async () => {
    const profile: Profile = { token: 'abc123', parent: undefined, children: [], time: 0, method: 'POST', url: 'https://localhost/', ip: '127.0.0.1', statusCode: 413, type: 'request', collectors: {} };
    const panelOf = async (type: string, read: boolean) => {
      const body = async () => Promise.reject(new Error('The request body exceeds 1048576 bytes.'));
      const request = new Request({ method: 'POST', target: '/upload', headers: { host: 'a.test', 'content-type': type, 'content-length': '1500000' }, body });
      if (read) await assert.rejects(request.body());
      // The error page's sub-request is a copy of the request: its record says the same.
      const sub = request.duplicate();
      const collector = new RequestCollector();
      return [request, sub].map((from) => renderToString(h(RequestPanel, { profile, data: collector.lateCollect(collector.collect(from, new Response('', 413)), from), base: '', query: new URLSearchParams(), routes: undefined })));
    };
    for (const html of await panelOf('text/plain', true)) assert.match(html, /Reading the body failed \(over the body limit, cut off, or the client went away\): not recorded\. \(1500000 bytes\)/);
    for (const html of await panelOf('application/x-www-form-urlencoded', true)) assert.match(html, /<h3>POST Parameters<\/h3><p class="empty">Reading the form body failed/);
    for (const html of await panelOf('multipart/form-data; boundary=x', true)) assert.match(html, /<h3>Uploaded Files<\/h3><p class="empty">Reading the form body failed/);
    for (const html of await panelOf('text/plain', false)) assert.match(html, /The application did not read the body/);
  });

  it('records the trusted-proxy resolution and the controller, n/a when none ran', () => {
    const data = new RequestCollector().collect(requestWith({}), new Response('', 404));
    assert.equal(data.controller, 'n/a');
    assert.equal(data.origin?.host, 'app.example.test');
    assert.equal(data.origin?.viaTrustedProxy, false);
    assert.equal(data.url, 'http://app.example.test/');
    assert.deepEqual([data.statusCode, data.statusText], [404, 'Not Found']);
  });
});

describe('ResponseCollector', () => {
  it('keeps the header order and hides cookie values', () => {
    const response = new Response('', 200, [['Content-Type', 'text/html'], ['Set-Cookie', 'sid=abc; path=/; httponly']]);
    const data = new ResponseCollector().collect(undefined, response);
    assert.deepEqual(data.headers.map(([name]) => name), ['Content-Type', 'Set-Cookie', 'Cache-Control', 'Date']);
    assert.equal(data.headers[1]?.[1], `sid=${MASK}; path=/; httponly`);
  });

  it('hides the value of a Set-Cookie line without a name, which a browser keeps as a value', () => {
    const response = new Response('', 200, [['Set-Cookie', 's3cr3t; Path=/a=b'], ['Set-Cookie', 'hunter2'], ['Set-Cookie', 'sid=']]);
    const data = new ResponseCollector().collect(undefined, response);
    assert.deepEqual(data.headers.slice(0, 3).map(([, value]) => value), [`${MASK}; Path=/a=b`, MASK, `sid=${MASK}`]);
  });
});

describe('ConfigCollector', () => {
  it('masks secret-named settings once and hands out the snapshot', () => {
    const collector = new ConfigCollector({ ...TEST_CONFIG, rateLimiter: {}, ...({ appSecret: 'x', redis: { password: 'p', host: 'h' } } as object) } as typeof TEST_CONFIG);
    const data = collector.collect() as { config: Record<string, unknown> };
    assert.equal(data.config.appSecret, MASK);
    assert.deepEqual(data.config.redis, { password: MASK, host: 'h' });
    assert.equal(collector.collect(), data);
  });
});
