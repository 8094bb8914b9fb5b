import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, it } from 'node:test';
import { MemoryProfileStore } from '../memory-profile-store.js';
import { bodyOf, createProfiledApp, failedRequest } from '../profiled-app.fixture.js';

describe('profiler panels', () => {
  it('shows the exception chain with the application frames opened on their .ts source', async () => {
    const { page } = await failedRequest();
    const html = await page('panel=exception');
    assert.match(html, /HTTP 404 Not Found/);
    assert.match(html, /NotFoundHttpException/);
    assert.match(html, /ResourceNotFoundException/);
    assert.match(html, /<strong>router-listener\.ts<\/strong>/);
    assert.match(html, /<ol class="trace-code" start="\d+" tabindex="0">[^]*<li class="selected"><code>/);
  });

  it('says a collector failed, where its panel would be, instead of failing the page', async () => {
    const store = new MemoryProfileStore();
    const { get } = createProfiledApp({ store });
    const token = (await get('/')).headers.get('x-debug-token')!;
    store.get(token)!.collectors.request = { collectorError: 'RangeError: <too deep>' };
    const response = await get(`/_profiler/${token}?panel=request`);
    assert.equal(response.status, 200);
    assert.match(bodyOf(response), /The &quot;request&quot; collector failed for this request: RangeError: &lt;too deep>/);
  });

  it("shows a request's POST parameters, or why there are none", async () => {
    const store = new MemoryProfileStore();
    const { get } = createProfiledApp({ store });
    const token = (await get('/')).headers.get('x-debug-token')!;
    const request = store.get(token)!.collectors.request as { postParameters: unknown };
    assert.match(bodyOf(await get(`/_profiler/${token}?panel=request`)), /<h3>POST Parameters<\/h3><p class="empty">No POST parameters<\/p>/);
    request.postParameters = { username: '<b>ada</b>', password: '******' };
    assert.match(bodyOf(await get(`/_profiler/${token}?panel=request`)), /<h3>POST Parameters<\/h3><table><tbody><tr><th><span>username<\/span><\/th><td>&lt;b>ada&lt;\/b><\/td><\/tr><tr><th><span>password<\/span><\/th><td>\*{6}<\/td>/);
    request.postParameters = 'unread';
    assert.match(bodyOf(await get(`/_profiler/${token}?panel=request`)), /The application did not read the form body/);
  });

  it('says why the origin it shows is a fallback, and names the prefix a trusted proxy gave', async () => {
    const store = new MemoryProfileStore();
    const { get } = createProfiledApp({ store });
    const refused = (await get('/', { host: 'evil.test/x' })).headers.get('x-debug-token')!;
    const html = bodyOf(await get(`/_profiler/${refused}?panel=request`));
    assert.match(html, /<th><span>host<\/span><\/th><td>localhost \(from fallback for the refused host\)<\/td>/);
    assert.match(html, /<th><span>refused<\/span><\/th><td>Invalid Host &quot;evil.test\/x&quot;\. The rows above are what keel used instead\.<\/td>/);
    const token = (await get('/')).headers.get('x-debug-token')!;
    const request = store.get(token)!.collectors.request as { origin: { prefix: string } };
    assert.doesNotMatch(bodyOf(await get(`/_profiler/${token}?panel=request`)), /refused|<span>prefix</);
    request.origin = { ...request.origin, prefix: '/app' };
    assert.match(bodyOf(await get(`/_profiler/${token}?panel=request`)), /<th><span>prefix<\/span><\/th><td>\/app \(from X-Forwarded-Prefix\)<\/td>/);
  });

  it('masks the logs of a record still being answered (a stream), before they are made storable, and survives a cyclic context', async () => {
    const store = new MemoryProfileStore();
    const { get } = createProfiledApp({ store });
    const token = (await get('/')).headers.get('x-debug-token')!;
    const context: Record<string, unknown> = { api_key: 'K3Y-VALUE', request_uri: 'http://localhost/feed?access_token=T0KEN', error: new Error('boom') };
    context.self = context;
    // As collect() leaves it, before lateCollect: the raw records.
    store.get(token)!.collectors.logger = { logs: [{ time: 0, level: 'info', channel: 'app', message: 'GET /feed?access_token=T0KEN', context }] };
    const response = await get(`/_profiler/${token}?panel=logger`);
    assert.equal(response.status, 200);
    const html = bodyOf(response);
    assert.doesNotMatch(html, /K3Y-VALUE|T0KEN/);
    assert.match(html, /access_token=\*{6}/);
  });

  it('lists every route the matcher tried for a miss, with why each did not match', async () => {
    const { page } = await failedRequest();
    const html = await page('panel=router');
    assert.match(html, /No route found for &quot;GET http:\/\/localhost\/robots\.txt&quot;|No routes found for &quot;\/robots\.txt\/?&quot;/);
    assert.match(html, /<td>home<\/td><td>\/<\/td><td>Path &quot;\/&quot; does not match<\/td>/);
    assert.match(html, /<td>_profiler<\/td><td>\/_profiler\/\{token\}<\/td>/);
  });

  it('shows the trailing-slash retry that turned /blog into a redirect', async () => {
    const { get } = createProfiledApp();
    const redirect = await get('/blog');
    const html = bodyOf(await get(`/_profiler/${redirect.headers.get('x-debug-token')}?panel=router`));
    assert.match(html, /Route &quot;blog_index&quot; matches \/blog\/: the request is redirected\./);
    assert.match(html, /Retry for http:\/\/…\/blog\//);
    assert.match(html, /<tr class="trace-match"><td>\d+<\/td><td>blog_index<\/td>/);
    assert.match(html, /matches once the trailing slash is toggled/);
  });

  it('filters the logs by minimum level and by channel', async () => {
    const { page } = await failedRequest();
    const all = await page('panel=logger');
    assert.match(all, /<span class="value">1<\/span><span class="label">Errors<\/span>/);
    assert.match(all, /Uncaught PHP Exception|NotFoundHttpException/);
    const errors = await page('panel=logger&level=error');
    assert.match(errors, /<tr class="level-error">/);
    const critical = await page('panel=logger&level=error&channel=nonexistent');
    assert.match(critical, /There are no log messages\./);
    assert.match(all, /href="\/_profiler\/000002\?panel=logger&amp;type=request&amp;channel=request"/);
  });

  it('names each navigation of the logs panel, the panel menu and both filters, level and channel', async () => {
    const { page } = await failedRequest();
    const navigations = [...(await page('panel=logger')).matchAll(/<nav[^>]*>/g)].map((match) => match[0]);
    assert.deepEqual(navigations.map((nav) => /aria-label="([^"]+)"/.exec(nav)?.[1]), ['Panels', 'Log level', 'Log channel']);
  });

  it('shows on the error sub-request\'s record only what was logged for it, as the reference does', async () => {
    const { get, sub } = await failedRequest();
    const html = bodyOf(await get(`/_profiler/${sub}?panel=logger`));
    assert.match(html, /<span class="value">0<\/span><span class="label">Errors<\/span>/);
    assert.doesNotMatch(html, /Uncaught PHP Exception/);
  });

  it("points the log line of the request's own error to the exception panel, which shows its trace", async () => {
    const { page } = await failedRequest();
    const html = await page('panel=logger');
    assert.match(html, /<p class="log-trace">The trace of exception is in the Exception panel: it is the request's own error\.<\/p>/);
    assert.doesNotMatch(html, /&quot;trace&quot;|Show trace/);
  });

  it('shows environment, versions and the rate-limit settings, secrets masked', async () => {
    const { page } = await failedRequest();
    const html = await page('panel=config');
    assert.match(html, /<span class="value">dev<\/span><span class="label">Environment<\/span>/);
    assert.match(html, new RegExp(`<span class="value">${process.version.replaceAll('.', '\\.')}</span><span class="label">Node\\.js</span>`));
    assert.match(html, /<span class="label">keel<\/span>/);
    assert.match(html, /<h3>rateLimiter<\/h3>[^]*fixed_window/);
  });

  it('masks credentials in request headers, query, cookies and response headers', async () => {
    const { page } = await failedRequest('/robots.txt?api_key=hunter2&q=ok', { authorization: 'Bearer hunter2', cookie: 'session=hunter2', 'x-auth-token': 'hunter2' });
    const request = await page('panel=request');
    const response = await page('panel=response');
    for (const html of [request, response]) assert.doesNotMatch(html, /hunter2/);
    assert.match(request, /<th><span>authorization<\/span><\/th><td>\*\*\*\*\*\*<\/td>/);
    assert.match(request, /<th><span>q<\/span><\/th><td>ok<\/td>/);
    assert.match(response, /<th><span>X-Debug-Token<\/span><\/th><td>000002<\/td>/);
  });

  it('shows method, URL, route, controller and request body size on the request panel, and the parent link on the child', async () => {
    const { get, page, sub, main } = await failedRequest();
    const html = await page('panel=request');
    assert.match(html, /<th><span>Method<\/span><\/th><td>GET<\/td>/);
    assert.match(html, /<th><span>Controller<\/span><\/th><td>n\/a<\/td>/);
    assert.match(html, /<th><span>Request body size<\/span><\/th><td>No content<\/td>/);
    const child = bodyOf(await get(`/_profiler/${sub}?panel=request`));
    assert.match(child, new RegExp(`<h3>Parent Request</h3><p><a href="/_profiler/${main}">${main}</a>`));
    assert.match(child, /<th><span>Controller<\/span><\/th><td>ErrorController<\/td>/);
  });

  it("lists the process's environment under Server Parameters on the request panel, as the reference lists $_SERVER", async () => {
    const { page } = await failedRequest();
    const html = await page('panel=request');
    const path = (process.env.PATH ?? '').replaceAll('&', '&amp;').replaceAll('<', '&lt;').replaceAll('"', '&quot;');
    assert.match(html, /<h3>Server Parameters<\/h3><h4>Defined in \.env<\/h4><p class="empty">\(no data\)<\/p><h4>Defined as regular env variables<\/h4><table>/);
    assert.ok(html.includes(`<th><span>PATH</span></th><td>${path}</td>`), 'PATH is listed');
  });

  it('opens the panel named last when the query names two, as PHP reads a repeated parameter', async () => {
    const { page } = await failedRequest();
    const html = await page('panel=request&panel=logger');
    assert.match(html, /<h2>Log Messages<\/h2>/);
    assert.doesNotMatch(html, /<h2>Request \/ Response<\/h2>/);
  });

  it('words an empty search and a request that threw nothing as the reference does', async () => {
    const { get } = createProfiledApp();
    const home = await get('/');
    const exception = bodyOf(await get(`/_profiler/${home.headers.get('x-debug-token')}?panel=exception`));
    assert.match(exception, /<div class="empty"><p>No exception was thrown and caught during the request\.<\/p><\/div>/);
    const none = bodyOf(await get('/_profiler/empty/search/results?limit=10&url=nothing-like-this'));
    assert.match(none, /<h2>No results found<\/h2>/);
    assert.match(none, /<div class="empty"><p>The query returned no result\.<\/p><\/div>/);
    assert.match(bodyOf(await get('/_profiler/empty/search/results?limit=10&url=%2F')), /<h2>1 results found<\/h2>/);
  });

  it('labels the menu in the reference wording and fills the search form back in', async () => {
    const { get, page } = await failedRequest();
    const html = await page('panel=request');
    for (const label of ['Request / Response', 'Performance', 'Exception', 'Logs', 'Routing', 'Configuration']) assert.match(html, new RegExp(`>${label}(<span class="menu-badge[^"]*">\\d+</span>)?</a>`));
    const results = bodyOf(await get('/_profiler/empty/search/results?status_code=404&url=robots&limit=50'));
    assert.match(results, /<input type="text" name="status_code" value="404"/);
    assert.match(results, /<option value="50" selected>50<\/option>/);
  });

  it('counts in the menu what went wrong, and marks the panel shown as the current page', async () => {
    const { get, page } = await failedRequest();
    const html = await page('panel=request');
    // The 404's two errors (the routing error and the 404 wrapping it), and its one error-level log record.
    assert.match(html, /data-panel-link="exception" href="[^"]+">Exception<span class="menu-badge badge-error">2<\/span><\/a>/);
    assert.match(html, /data-panel-link="logger" href="[^"]+">Logs<span class="menu-badge badge-error">1<\/span><\/a>/);
    assert.match(html, /<a class="selected" aria-current="page" data-panel-link="request"/);
    const ok = (await get('/')).headers.get('x-debug-token')!;
    const page2 = bodyOf(await get(`/_profiler/${ok}?panel=request`));
    assert.match(page2, /data-panel-link="exception" href="[^"]+">Exception<\/a>/);
    assert.match(page2, /data-panel-link="logger" href="[^"]+">Logs<span class="menu-badge badge-plain">\d+<\/span><\/a>/);
  });

  it("shows a request's content, escaped, or why it does not", async () => {
    const store = new MemoryProfileStore();
    const { get } = createProfiledApp({ store });
    const token = (await get('/')).headers.get('x-debug-token')!;
    const request = store.get(token)!.collectors.request as { content: unknown };
    const panel = async () => bodyOf(await get(`/_profiler/${token}?panel=request`));
    assert.match(await panel(), /<h3>Request Content<\/h3><p class="empty">No content<\/p>/);
    request.content = { json: '{"name":"<script>x</script>"}' };
    assert.match(await panel(), /<h3>Request Content<\/h3><pre>\{\n {4}&quot;name&quot;: &quot;&lt;script>x&lt;\/script>&quot;\n\}<\/pre>/);
    request.content = { text: 'hello <b>world</b>' };
    assert.match(await panel(), /<h3>Request Content<\/h3><pre>hello &lt;b>world&lt;\/b><\/pre>/);
    request.content = { withheld: 'secret', bytes: 33 };
    assert.match(await panel(), /names a secret \(a password, a token, a key…\) in a format whose values cannot be masked: not recorded\. \(33 bytes\)/);
  });

  it("lists a request's uploaded files and a response's cookies, values masked", async () => {
    const store = new MemoryProfileStore();
    const { get } = createProfiledApp({ store });
    const token = (await get('/')).headers.get('x-debug-token')!;
    const profile = store.get(token)!;
    assert.match(bodyOf(await get(`/_profiler/${token}?panel=request`)), /<h3>Uploaded Files<\/h3><p class="empty">No files were uploaded<\/p>/);
    assert.match(bodyOf(await get(`/_profiler/${token}?panel=response`)), /<h3>Response Cookies<\/h3><p class="empty">No response cookies<\/p>/);
    (profile.collectors.request as { files: unknown }).files = [{ field: 'avatar', filename: '<me>.png', type: 'image/png', size: 7 }];
    (profile.collectors.response as { headers: [string, string][] }).headers.push(['Set-Cookie', 'sid=******; path=/; httponly']);
    assert.match(bodyOf(await get(`/_profiler/${token}?panel=request`)), /<h3>Uploaded Files<\/h3><table><tbody><tr><th><span>avatar<\/span><\/th><td>&lt;me>\.png \(image\/png, 7 bytes\)<\/td>/);
    assert.match(bodyOf(await get(`/_profiler/${token}?panel=response`)), /<h3>Response Cookies<\/h3><table><tbody><tr><th><span>sid<\/span><\/th><td>\*{6}; path=\/; httponly<\/td>/);
  });

  it("lists the listeners a request called, with their priority, calls and time, and those it did not", async () => {
    const { page } = await failedRequest();
    const html = await page('panel=events');
    assert.match(html, /<h2>Event Dispatcher<\/h2>/);
    const [called, notCalled] = html.split('<h3>Not Called Listeners</h3>');
    // The 404 went through the request and exception events.
    assert.match(called!, /<tr><td>request<\/td><td>32<\/td><td>RouterListener\.onRequest<div class="listener-source">.*?<\/div><\/td><td>1<\/td><td>\d+\.\d{3}<\/td><\/tr>/);
    assert.match(called!, /<td>exception<\/td>/);
    // The record is written from within terminate: its own listener there cannot have been seen to end.
    assert.match(notCalled!, /<tr><td>terminate<\/td><td>-1024<\/td><td>ProfilerListener\.onTerminate<div class="listener-source">.*?<\/div><\/td><\/tr>/);
    assert.match(notCalled!, /written while terminate listeners still run/);
    assert.doesNotMatch(notCalled!, /RouterListener\.onRequest/);
  });

  it("links the exception's frames of project files to the profiler's source view", async () => {
    const { page } = await failedRequest();
    const html = await page('panel=exception');
    assert.match(html, /<span class="trace-file-path">in <a href="\/_profiler\/open\?file=src%2Frouting%2Frouter-listener\.ts&amp;line=\d+#line\d+">[^<]*<strong>router-listener\.ts<\/strong><\/a> \(line \d+\)<\/span>/);
  });

  it("links each listener to where it is defined, opened by the profiler's source view, as the reference links its class", async () => {
    const { page, get } = await failedRequest();
    const html = await page('panel=events');
    const lineOf = (file: string, text: string) => readFileSync(file, 'utf8').split('\n').findIndex((line) => line.includes(text)) + 1;
    for (const [file, text, name] of [
      ['src/routing/router-listener.ts', '  onRequest(event: RequestEvent): void {', 'RouterListener.onRequest'],
      ['src/profiler/profiler-listener.ts', '  readonly onTerminate = (event: TerminateEvent): void => {', 'ProfilerListener.onTerminate'],
    ] as const) {
      const line = lineOf(file, text);
      assert.ok(line > 0, `${text} is in ${file}`);
      const link = `<a href="/_profiler/open?file=${encodeURIComponent(file)}&amp;line=${line}#line${line}">${file}:${line}</a>`;
      assert.ok(html.includes(`${name}<div class="listener-source">${link}</div>`), `${name} links to ${file}:${line}`);
      // The link opens the file, that line selected.
      const opened = bodyOf(await get(`/_profiler/open?file=${encodeURIComponent(file)}&line=${line}`));
      assert.ok(opened.includes(`<li id="line${line}" class="selected" value="${line}"><code>${text}</code></li>`), `${file} is shown at line ${line}`);
    }
  });
});

