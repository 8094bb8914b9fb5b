/** @jsxRuntime automatic @jsxImportSource preact */
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { renderToString } from 'preact-render-to-string';
import { Request } from '../../../../http/request.js';
import { Response } from '../../../../http/response.js';
import { ExceptionCollector, type ExceptionData, type ExceptionLink } from '../../../collectors/exception-collector.js';
import type { Profile } from '../../../profile.js';
import { ExceptionPanel } from './exception.js';

function panelFor(message: string, link: ExceptionLink = { className: 'TooManyRequestsHttpException', message, code: undefined, status: 429, statusText: 'Too Many Requests', file: '', line: 0, trace: [] }): string {
  const profile: Profile = { token: 'abc123', parent: undefined, children: [], time: 0, method: 'GET', url: 'http://localhost/limited', ip: '127.0.0.1', statusCode: 429, type: 'request', collectors: {} };
  return renderToString(<ExceptionPanel profile={profile} data={{ chain: [link] }} base="" query={new URLSearchParams()} routes={undefined} />);
}

describe('ExceptionPanel', () => {
  it("heads the chain with the error's message", () => {
    assert.match(panelFor('Rate limit exceeded'), /<h3 class="exception-message">Rate limit exceeded<\/h3>/);
  });

  it('writes no empty heading for an error without a message', () => {
    const html = panelFor('');
    assert.doesNotMatch(html, /exception-message/);
    assert.match(html, /HTTP 429 Too Many Requests/);
  });

  it('writes the chain as plain text too, to copy into a bug report', () => {
    const file = join(process.cwd(), 'src', 'missing-app.ts');
    const caller = join(process.cwd(), 'src', 'missing-kernel.ts');
    const link: ExceptionLink = {
      className: 'RuntimeException',
      message: 'Boom <b>',
      code: undefined,
      status: 500,
      statusText: 'Internal Server Error',
      file,
      line: 7,
      trace: [
        { function: 'boom', file, line: 7, column: 3, inApp: true },
        { function: 'Kernel.handle', file: caller, line: 42, column: 9, inApp: true },
      ],
    };
    const html = panelFor('Boom <b>', link);
    assert.match(html, /<h3>Stack Trace<\/h3>/);
    const text = ['RuntimeException:', 'Boom &lt;b&gt;', '  at src/missing-app.ts:7', '  at Kernel.handle()', '     (src/missing-kernel.ts:42)'].join('\n');
    assert.ok(html.includes(`<pre class="stacktrace">${text}</pre>`), html);
  });

  it('says how many earlier exceptions of a long chain its record left out, and nothing for a whole one', () => {
    const panel = (error: unknown): string => {
      // Through JSON, as a record read back from the store gives its data.
      const data = JSON.parse(JSON.stringify(new ExceptionCollector().collect(new Request({ method: 'GET', target: '/' }), new Response(), error))) as ExceptionData;
      const profile: Profile = { token: 'abc123', parent: undefined, children: [], time: 0, method: 'GET', url: 'http://localhost/', ip: '127.0.0.1', statusCode: 500, type: 'request', collectors: {} };
      return renderToString(<ExceptionPanel profile={profile} data={data} base="" query={new URLSearchParams()} routes={undefined} />);
    };
    let error: Error = new Error('e0');
    for (let i = 1; i < 20; i++) error = new Error(`e${i}`, { cause: error });
    assert.match(panel(error), /<p class="trace-omitted">4 earlier exceptions of the chain are not shown: the first 16 are\.<\/p>/);
    assert.doesNotMatch(panel(new Error('alone', { cause: new Error('cause') })), /<p class="trace-omitted">/);
  });
});
