/** @jsxRuntime automatic @jsxImportSource preact */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { renderToString } from 'preact-render-to-string';
import type { ExceptionLink } from '../../../collectors/exception-collector.js';
import type { Profile } from '../../../profile.js';
import { ExceptionPanel } from './exception.js';

function panelFor(message: string): string {
  const link: ExceptionLink = { className: 'TooManyRequestsHttpException', message, code: undefined, status: 429, statusText: 'Too Many Requests', file: '', line: 0, trace: [] };
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
});
