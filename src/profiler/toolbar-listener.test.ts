import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { gunzipSync } from 'node:zlib';
import { bodyOf, createProfiledApp } from './profiled-app.fixture.js';

describe('ToolbarListener', () => {
  it('links every profiled response to its record with an absolute URL', async () => {
    const { get } = createProfiledApp();
    const response = await get('/api');
    assert.equal(response.headers.get('x-debug-token-link'), `http://localhost/_profiler/${response.headers.get('x-debug-token')}`);
  });

  it('links the main record of a failed request and keeps the reference header order', async () => {
    const { get } = createProfiledApp();
    const response = await get('/robots.txt');
    const names = [...response.headers].map(([name]) => name);
    const at = (name: string) => names.indexOf(name);
    assert.ok(at('X-Debug-Token') < at('X-Debug-Token-Link') && at('X-Debug-Token-Link') < at('X-Previous-Debug-Token'));
    assert.equal(response.headers.get('x-debug-token-link'), 'http://localhost/_profiler/000002');
  });

  it('sets no link when the toolbar is off, as the reference without the toolbar', async () => {
    const { get } = createProfiledApp({ toolbar: false });
    const response = await get('/');
    assert.equal(response.headers.has('x-debug-token'), true);
    assert.equal(response.headers.has('x-debug-token-link'), false);
    assert.equal(bodyOf(response), '<html><body><h1>home</h1></body></html>');
  });

  it('injects the toolbar before the last </body> of an HTML page', async () => {
    const { get } = createProfiledApp();
    const response = await get('/');
    const token = response.headers.get('x-debug-token');
    const body = bodyOf(response);
    assert.match(body, new RegExp(`^<html><body><h1>home</h1>\n<div class="sf-toolbar-clearer"></div><div id="sfwdt${token}" class="sf-toolbar"[^]*</div>\n</body></html>$`));
    assert.match(body, /<span class="sf-toolbar-item" title="Route">home<\/span>/);
    assert.match(body, /title="Request time">\d+ ms</);
    assert.match(body, /title="Peak memory of the process">\d+\.\d MiB</);
    assert.match(body, /title="Log messages">1 log</);
    assert.match(body, new RegExp(`href="/_profiler/${token}"`));
    assert.match(body, /<link rel="stylesheet" href="\/_profiler\/assets\/toolbar\.css"\/>/);
    assert.match(body, /sf-toolbar-status-success" [^>]*>200</);
  });

  it('colours the status as the reference: red from 400, yellow for a redirect', async () => {
    const { get } = createProfiledApp();
    const missing = await get('/missing-page');
    assert.match(bodyOf(missing), /sf-toolbar-status-error" [^>]*>404</);
  });

  it('finds </BODY> in any case, in a text page or a Buffer one', async () => {
    const { get } = createProfiledApp();
    const shout = await get('/shout');
    assert.match(bodyOf(shout), /^<HTML><BODY>İSTANBUL\n<div class="sf-toolbar-clearer"><\/div><div id="sfwdt\w+" class="sf-toolbar"[^]*<\/div>\n<\/BODY><\/HTML>$/);
    const bytes = await get('/bytes');
    assert.ok(Buffer.isBuffer(bytes.body));
    assert.match(bodyOf(bytes), /^<html><body>bytes\n<div class="sf-toolbar-clearer"><\/div><div id="sfwdt\w+" class="sf-toolbar"[^]*<\/div>\n<\/body><\/html>$/);
  });

  it('reads the Content-Type in any case, as media types are', async () => {
    const { get } = createProfiledApp();
    assert.match(bodyOf(await get('/upper-type')), /^<html><body>u\n<div class="sf-toolbar-clearer">/);
  });

  it('takes the last </body> in any case, even after one in lower case, as the reference (strripos)', async () => {
    const { get } = createProfiledApp();
    for (const path of ['/mixed-case', '/mixed-case-bytes']) {
      assert.match(bodyOf(await get(path)), /^<html><body>a<\/body><p>b<\/p>\n<div class="sf-toolbar-clearer"><\/div><div id="sfwdt\w+" class="sf-toolbar"[^]*<\/div>\n<\/BODY><\/html>$/, path);
    }
  });

  it('writes the non-ASCII text of the toolbar as character references into a page of bytes, which may be in any charset', async () => {
    const { get } = createProfiledApp();
    const body = (await get('/latin1')).body as Buffer;
    const text = body.toString('latin1');
    assert.match(text, /^<html><body>café\n<div class="sf-toolbar-clearer">/);
    assert.match(text, /title="Route">page_&#233;t&#233;</);
    // The page's own é is its only byte outside ASCII.
    assert.equal([...body].filter((byte) => byte > 0x7f).length, 1);
  });

  it('leaves alone JSON, pages without </body>, XHR requests and the error sub-request', async () => {
    const { get } = createProfiledApp();
    assert.equal(bodyOf(await get('/api')), '{"ok":true}');
    assert.equal(bodyOf(await get('/fragment')), '<p>no body element</p>');
    assert.doesNotMatch(bodyOf(await get('/', { 'x-requested-with': 'XMLHttpRequest' })), /sf-toolbar/);
    // The error page is the sub-request's response: only the main request injects, once.
    assert.equal(bodyOf(await get('/robots.txt')).match(/class="sf-toolbar"/g)?.length, 1);
  });

  it('leaves a compressed page as it was encoded, even one whose bytes hold </body>', async () => {
    const { get } = createProfiledApp();
    const response = await get('/gzipped');
    assert.ok(Buffer.isBuffer(response.body));
    assert.equal(gunzipSync(response.body).toString('utf8'), '<html><body>gz</body></html>');
  });

  it('leaves an attachment alone, also one whose header has no parameter', async () => {
    const { get } = createProfiledApp();
    const response = await get('/download');
    assert.equal(bodyOf(response), '<html><body>file</body></html>');
    assert.equal(response.headers.has('x-debug-token-link'), true);
  });

  it('counts the exceptions and error logs of a failed page', async () => {
    const { get } = createProfiledApp();
    const body = bodyOf(await get('/robots.txt'));
    // The NotFoundHttpException and the routing error it wraps.
    assert.match(body, /title="Exceptions">2 exceptions</);
    assert.match(body, /title="Log messages">1 log \(1 error\)</);
  });

  it('does not touch a redirect', async () => {
    const { get } = createProfiledApp();
    const response = await get('/blog');
    assert.equal(response.status, 301);
    assert.doesNotMatch(bodyOf(response), /sf-toolbar/);
  });

  describe('under the application\'s Content-Security-Policy', () => {
    // An application that sends a strict policy with every response, as a security listener would.
    function strictApp() {
      const app = createProfiledApp();
      app.kernel.dispatcher.on('response', (event) => event.response.headers.set('Content-Security-Policy', "default-src 'none'"));
      return app;
    }

    it('lets the toolbar\'s stylesheet through with a nonce the policy now names', async () => {
      const response = await strictApp().get('/');
      const policy = response.headers.get('content-security-policy') ?? '';
      const nonce = /style-src 'unsafe-inline' 'nonce-([0-9a-f]{32})'/.exec(policy)?.[1];
      assert.ok(nonce, policy);
      assert.match(bodyOf(response), new RegExp(`<link rel="stylesheet" href="/_profiler/assets/toolbar.css" nonce="${nonce}"/>`));
    });

    it('drops the policy from the profiler\'s own record and search pages, keeps it adjusted elsewhere', async () => {
      const { get } = strictApp();
      const page = await get('/');
      const token = page.headers.get('x-debug-token')!;
      for (const path of [`/_profiler/${token}`, `/_profiler/${token}?panel=nope`, '/_profiler/search_bar', '/_profiler/empty/search/results?limit=10']) {
        assert.equal((await get(path)).headers.has('content-security-policy'), false, path);
      }
      assert.match((await get(`/_profiler/${token}/router`)).headers.get('content-security-policy') ?? '', /'nonce-/);
    });

    it('drops the policy from the source view, a page whose stylesheet carries no nonce', async () => {
      const source = await strictApp().get('/_profiler/open?file=src/profiler/token.ts&line=1');
      assert.equal(source.status, 200);
      assert.match(bodyOf(source), /<link rel="stylesheet" href="\/_profiler\/assets\/profiler\.css"\/>/);
      assert.equal(source.headers.has('content-security-policy'), false);
    });
  });
});
