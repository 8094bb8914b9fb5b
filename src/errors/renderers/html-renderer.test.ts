import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { dirname, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, it } from 'node:test';
import { HttpException, NotFoundHttpException } from '../../http/http-exception.js';
import { Request } from '../../http/request.js';
import { RequestStack } from '../../kernel/request-stack.js';
import { createFlatError } from '../flat-error.js';
import { HtmlRenderer } from './html-renderer.js';
import { describeRendererContract } from './renderer.contract.js';

const THIS_FILE = fileURLToPath(import.meta.url);

class ResourceNotFoundException extends Error {}

function notFound(referer?: string): { error: NotFoundHttpException; request: Request } {
  const headers: Record<string, string> = { host: 'app.example.test', accept: 'text/html' };
  if (referer !== undefined) headers.referer = referer;
  const request = new Request({ method: 'GET', target: '/robots.txt', headers });
  const message = `No route found for "GET http://app.example.test/robots.txt"${referer === undefined ? '' : ` (from "${referer}")`}`;
  const cause = new ResourceNotFoundException('No routes found for "/robots.txt/".');
  return { error: new NotFoundHttpException(message, { cause }), request };
}

function renderDebug(error: unknown, request: Request): string {
  return new HtmlRenderer().render(createFlatError(error, { debug: true }), { request, debug: true }).body;
}

describeRendererContract('HtmlRenderer', () => new HtmlRenderer());

describe('HtmlRenderer', () => {
  describe('in debug', () => {
    it('says how many earlier exceptions a chain cut at its limit leaves out, and nothing for a whole chain', () => {
      let error: Error = new Error('e0');
      for (let i = 1; i < 20; i++) error = new Error(`e${i}`, { cause: error });
      const request = new Request({ method: 'GET', target: '/', headers: { host: 'app.example.test' } });
      assert.match(renderDebug(error, request), /<p class="trace-omitted">4 earlier exceptions of the chain are not shown: the first 16 are\.<\/p>/);
      const { error: whole, request: other } = notFound();
      assert.doesNotMatch(renderDebug(whole, other), /<p class="trace-omitted">/);
    });

    // The error sub-request is a GET whatever failed: its Request tab would have named a failed DELETE a GET.
    it('shows the request that failed, not the error sub-request rendering it', () => {
      const failed = new Request({ method: 'DELETE', target: '/notes/3?x=1', headers: { host: 'app.example.test' } });
      const body = renderDebug(new Error('x'), failed.duplicate({ method: 'GET' }));
      assert.match(body, /<tr><th>Method<\/th><td>DELETE<\/td><\/tr>/);
      assert.match(body, /<td class="break-long-words">http:\/\/app\.example\.test\/notes\/3\?x=1<\/td>/);
    });

    it('opens and closes the document with the title as an HTML comment', () => {
      const { error, request } = notFound();
      const body = renderDebug(error, request);
      const comment = '<!-- No route found for &quot;GET http://app.example.test/robots.txt&quot; (404 Not Found) -->';
      const lines = body.trimEnd().split('\n');
      assert.equal(lines[0], comment);
      assert.equal(lines[1], '<!DOCTYPE html>');
      assert.equal(lines.at(-1), comment);
      assert.ok(lines.at(-2)!.endsWith('</html>'));
      assert.ok(body.includes('<title>No route found for &quot;GET http://app.example.test/robots.txt&quot; (404 Not Found)</title>'));
      assert.ok(body.includes('<meta name="robots" content="noindex,nofollow"/>'));
    });

    it('shows the chain from cause to error, the status and the message', () => {
      const { error, request } = notFound();
      const body = renderDebug(error, request);
      const hierarchy = /<h2 class="exception-hierarchy">(.*?)<\/h2>/s.exec(body)![1]!;
      assert.ok(hierarchy.indexOf('ResourceNotFoundException') < hierarchy.indexOf('NotFoundHttpException'));
      assert.ok(hierarchy.includes('<span class="separator">&#8250;</span>'));
      assert.match(body, /HTTP 404 <small>Not Found<\/small>/);
      assert.match(body, /<h1 class="break-long-words exception-message">No route found for &quot;GET http:\/\/app.example.test\/robots.txt&quot;<\/h1>/);
      assert.match(body, /Exceptions <span class="badge">2<\/span>/);
      assert.match(body, /Stack Traces <span class="badge">2<\/span>/);
      assert.ok(body.includes('<p class="break-long-words trace-message">No routes found for &quot;/robots.txt/&quot;.</p>'));
      assert.ok(body.includes('id="trace-box-1"') && body.includes('id="trace-box-2"'));
    });

    it('hides the empty heading of an error without a message, as the reference does', () => {
      const { request } = notFound();
      const body = renderDebug(new Error(''), request);
      assert.match(body, /<div class="exception-summary exception-without-message">/);
      assert.match(body, /<div class="container exception-message-wrapper"><h1 class="break-long-words exception-message"><\/h1>/);
      assert.ok(body.includes('.exception-without-message .exception-message-wrapper { display: none; }'));
      assert.match(renderDebug(new Error('with a message'), request), /<div class="exception-summary">/);
    });

    it('names its tabs in the singular, without a count, for a single error, as the reference does', () => {
      const { request } = notFound();
      const body = renderDebug(new Error('alone'), request);
      assert.match(body, /<label for="tab-exceptions">Exception<\/label>/);
      assert.match(body, /<label for="tab-traces">Stack Trace<\/label>/);
    });

    it('writes the project\'s files relative to it in the plain-text traces, as the reference does', () => {
      const { error, request } = notFound();
      const text = /<pre class="stacktrace">([^]*?)<\/pre>/.exec(renderDebug(error, request))![1]!;
      assert.match(text, /\n {2}at src\/errors\/renderers\/html-renderer\.test\.ts:\d+/);
      assert.ok(!text.includes(`${process.cwd()}/src/`), text.slice(0, 300));
    });

    it('opens the first application frame of each error on its source, with the throwing line selected, the folder relative to the project', () => {
      const { error, request } = notFound();
      const body = renderDebug(error, request);
      assert.ok(body.includes(`in ${relative(process.cwd(), dirname(THIS_FILE))}/<strong>html-renderer.test.ts</strong>`));
      assert.ok(!body.includes(`in ${dirname(THIS_FILE)}/<strong>`), 'no absolute folder');
      // The 404 and its cause: one frame opened in each, the others closed.
      assert.equal(body.match(/<details class="trace-line" open>/g)?.length, 2);
      assert.match(body, /<details class="trace-line">/);
      assert.match(body, /<li class="selected"><code> {2}const cause = new ResourceNotFoundException\('No routes found for &quot;\/robots.txt\/&quot;.'\);<\/code><\/li>/);
      assert.match(body, /<details class="trace-line" open>/);
      assert.match(body, /<details class="trace-line vendor">/);
    });

    it('leaves out the message paragraph of an error in the chain that has none, as the reference', () => {
      const { request } = notFound();
      const body = renderDebug(new HttpException(405, { message: 'No route found', cause: new Error('') }), request);
      assert.doesNotMatch(body, /<p class="break-long-words trace-message"><\/p>/);
    });

    it('writes the page in ASCII when a source excerpt is not, its other characters as references', () => {
      const { request } = notFound();
      // RFC 9112 §9.6 → the excerpt around this line holds characters outside ASCII: é, 😀
      const error = new Error('thrown beside a comment in another alphabet');
      const body = renderDebug(error, request);
      assert.ok(body.includes('<code>      // RFC 9112 &#167;9.6 &#8594; the excerpt around this line holds characters outside ASCII: &#233;, &#128512;</code>'), body.slice(0, 200));
      assert.doesNotMatch(body, /[\u0080-\u{10ffff}]/u);
    });

    it("links each project file's frames to the profiler's source view when the profiler is there, and only then", () => {
      const { error, request } = notFound();
      const linked = new HtmlRenderer({ projectDir: process.cwd() }).render(createFlatError(error, { debug: true }), { request, debug: true }).body;
      const line = readFileSync(THIS_FILE, 'utf8').split('\n').findIndex((text) => text.includes("const cause = new ResourceNotFoundException(")) + 1;
      const href = `/_profiler/open?file=${encodeURIComponent('src/errors/renderers/html-renderer.test.ts')}&amp;line=${line}#line${line}`;
      assert.ok(linked.includes(`<span class="trace-file-path">in <a href="${href}">`), 'the frame links to its file');
      // node's own frames have no file the view could open.
      assert.match(linked, /<span class="trace-file-path">in <strong>node:[^<]+<\/strong> \(line \d+\)<\/span>/);
      // Without the profiler (no project directory given), nothing to link to.
      assert.doesNotMatch(renderDebug(error, request), /<span class="trace-file-path">in <a /);
    });

    it('links frames to the editor when one is set, profiler or not, node\'s own frames excepted', () => {
      const { error, request } = notFound();
      const body = new HtmlRenderer({ editor: 'vscode://file/%f:%l' }).render(createFlatError(error, { debug: true }), { request, debug: true }).body;
      const line = readFileSync(THIS_FILE, 'utf8').split('\n').findIndex((text) => text.includes('return { error: new NotFoundHttpException(')) + 1;
      assert.ok(body.includes(`<span class="trace-file-path">in <a href="vscode://file/${encodeURI(THIS_FILE)}:${line}">`), 'the frame links to the editor');
      assert.match(body, /<span class="trace-file-path">in <strong>node:[^<]+<\/strong> \(line \d+\)<\/span>/);
    });

    it('lets the keyboard reach a source excerpt, which scrolls sideways when a line is long', () => {
      const { error, request } = notFound();
      assert.match(renderDebug(error, request), /<ol class="trace-code" start="\d+" tabindex="0"><li/);
    });

    it('lists the request logs with level, channel and message, counting errors', () => {
      const { error, request } = notFound();
      request.stack = new RequestStack();
      request.stack.logs.push(
        { time: Date.UTC(2026, 0, 1, 10, 52, 51), level: 'info', channel: 'request', message: 'Matched route "<home>".', context: {} },
        { time: Date.UTC(2026, 0, 1, 10, 52, 52), level: 'error', channel: 'request', message: 'Uncaught PHP Exception X', context: {} },
      );
      const body = renderDebug(error, request);
      assert.match(body, /Logs <span class="badge status-error">1<\/span>/);
      assert.ok(body.includes('<strong>ERROR</strong><br/><span class="text-muted">10:52:52</span>'));
      assert.ok(body.includes('<td class="nowrap">request</td><td class="break-long-words">Matched route &quot;&lt;home>&quot;.</td>'));
    });

    it('shows each record\'s context under its message as the reference does, pretty JSON with secrets masked', () => {
      const { error, request } = notFound();
      request.stack = new RequestStack();
      const context = { route: 'login', route_parameters: { _route: 'login' }, request_uri: 'https://app.example.test/login?token=abc', password: 'hunter2', note: '</pre><script>x</script>' };
      request.stack.logs.push({ time: Date.UTC(2026, 0, 1, 10, 52, 51), level: 'info', channel: 'request', message: 'Matched route "login".', context });
      const body = renderDebug(error, request);
      const shown = /Matched route &quot;login&quot;\.<pre class="text-muted prewrap m-t-5">([^<]*)<\/pre>/.exec(body)?.[1];
      assert.ok(shown !== undefined, 'the context block under the message');
      assert.ok(shown.startsWith('{\n    &quot;route&quot;: &quot;login&quot;,\n    &quot;route_parameters&quot;: {\n        &quot;_route&quot;: &quot;login&quot;\n    },'), shown);
      // The page's source excerpts show this test's own lines: the context block alone is checked.
      assert.ok(!shown.includes('hunter2') && shown.includes('&quot;password&quot;: &quot;******&quot;'), 'password masked');
      assert.ok(!shown.includes('token=abc'), 'token masked');
      assert.ok(shown.includes('&lt;/pre>&lt;script>x&lt;/script>'), 'escaped');
    });

    it('masks secrets in the request section as the profiler does: secret-named headers, secret query parameters', () => {
      const request = new Request({
        method: 'GET',
        target: '/robots.txt?access_token=Q-SECRET&page=2',
        headers: { host: 'app.example.test', authorization: 'Bearer A-SECRET', 'x-api-key': 'K-SECRET', cookie: 'session=C-SECRET', referer: 'https://u:P-SECRET@evil.test/', accept: 'text/html' },
      });
      const body = renderDebug(new NotFoundHttpException('No route found for "GET http://app.example.test/robots.txt"'), request);
      const section = body.slice(body.indexOf('<table class="request">'));
      assert.doesNotMatch(section, /[A-Z]-SECRET/);
      assert.ok(section.includes('<th class="nowrap">authorization</th><td class="break-long-words">******</td>'));
      assert.ok(section.includes('access_token=******&amp;page=2'));
      assert.ok(section.includes('<th class="nowrap">accept</th><td class="break-long-words">text/html</td>'));
    });

    it('says so when nothing was logged', () => {
      const { error, request } = notFound();
      assert.ok(renderDebug(error, request).includes('No log messages'));
    });

    it('escapes a <script> from the referer everywhere: comment, title, h1, request section', () => {
      const referer = 'https://evil.test/"><script>alert(1)</script>';
      const { error, request } = notFound(referer);
      const body = renderDebug(error, request);
      assert.ok(!body.includes('<script>'), 'no live script tag');
      assert.ok(body.startsWith('<!-- No route found for &quot;GET http://app.example.test/robots.txt&quot; (from &quot;https://evil.test/&quot;&gt;&lt;script&gt;alert(1)&lt;/script&gt;&quot;) (404 Not Found) -->\n'));
      // Title and message as the reference's htmlspecialchars() writes them, `>` included.
      assert.ok(body.includes('<title>No route found for &quot;GET http://app.example.test/robots.txt&quot; (from &quot;https://evil.test/&quot;&gt;&lt;script&gt;alert(1)&lt;/script&gt;&quot;) (404 Not Found)</title>'));
      assert.ok(body.includes('exception-message">No route found for &quot;GET http://app.example.test/robots.txt&quot; (from &quot;https://evil.test/&quot;&gt;&lt;script&gt;alert(1)&lt;/script&gt;&quot;)</h1>'));
      assert.ok(body.includes('<th class="nowrap">referer</th><td class="break-long-words">https://evil.test/&quot;>&lt;script>alert(1)&lt;/script></td>'));
    });

    it('writes a cause\'s message in its trace as the reference does, every special character escaped', () => {
      const cause = new Error('No routes found for "/<script>x</script>/".');
      const error = new NotFoundHttpException('No route found for "GET /x"', { cause });
      const body = renderDebug(error, notFound().request);
      assert.ok(body.includes('<p class="break-long-words trace-message">No routes found for &quot;/&lt;script&gt;x&lt;/script&gt;/&quot;.</p>'), 'the trace box message');
      assert.ok(body.includes('Error:\nNo routes found for &quot;/&lt;script&gt;x&lt;/script&gt;/&quot;.\n'), 'the plain-text trace');
    });

    it('keeps a message containing --> from ending the leading comment early', () => {
      const request = new Request({ method: 'GET', target: '/' });
      const body = renderDebug(new Error('x --> <img src=x onerror=alert(1)> --!> y'), request);
      const first = body.split('\n')[0]!;
      assert.equal(first, '<!-- x --&gt; &lt;img src=x onerror=alert(1)&gt; --!&gt; y (500 Internal Server Error) -->');
      assert.equal(first.indexOf('>'), first.length - 1);
      assert.ok(!body.includes('<img'));
    });

    it('escapes a <script> in the request path shown in the request section', () => {
      const request = new Request({ method: 'GET', target: '/<script>alert(1)</script>' });
      const body = renderDebug(new NotFoundHttpException('nope'), request);
      assert.ok(!body.includes('<script>'));
      assert.ok(body.includes('/&lt;script>alert(1)&lt;/script>'));
    });
  });

  describe('without debug', () => {
    it('renders the generic page of the reference, with no internals', () => {
      const { error, request } = notFound('https://evil.test/<script>');
      const { body, headers } = new HtmlRenderer().render(createFlatError(error), { request, debug: false });
      assert.ok(body.startsWith('<!DOCTYPE html>\n<html lang="en"><head><meta charset="UTF-8"/><meta name="robots" content="noindex,nofollow,noarchive"/><title>An Error Occurred: Not Found</title>'));
      assert.ok(body.includes('<h1>Oops! An Error Occurred</h1><h2>The server returned a &quot;404 Not Found&quot;.</h2>'));
      assert.ok(body.includes('Something is broken. Please let us know what you were doing when this error occurred.'));
      for (const secret of ['robots.txt', 'evil.test', 'NotFoundHttpException', 'ResourceNotFound', 'html-renderer.test']) {
        assert.ok(!body.includes(secret), `leaks ${secret}`);
      }
      assert.deepEqual(headers, [['Content-Type', 'text/html; charset=UTF-8']]);
    });

    it('never shows the message of a 5xx', () => {
      const request = new Request({ method: 'GET', target: '/boom' });
      const { body } = new HtmlRenderer().render(createFlatError(new HttpException(500, { message: 'db password wrong' })), { request, debug: false });
      assert.ok(body.includes('The server returned a &quot;500 Internal Server Error&quot;.'));
      assert.ok(!body.includes('db password'));
    });
  });
});
