/** @jsxRuntime automatic @jsxImportSource preact */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { renderToString } from 'preact-render-to-string';
import type { LogRecord } from '../../../../logging/log-record.js';
import type { Profile } from '../../../profile.js';
import { LoggerPanel } from './logger.js';

function panelFor(logs: LogRecord[], dropped?: number): string {
  const profile: Profile = { token: 'abc123', parent: undefined, children: [], time: 0, method: 'GET', url: 'http://localhost/', ip: '127.0.0.1', statusCode: 200, type: 'request', collectors: {} };
  return renderToString(<LoggerPanel profile={profile} data={dropped === undefined ? { logs } : { logs, dropped }} base="" query={new URLSearchParams()} routes={undefined} />);
}

const FRAME = { function: 'Feed.load', file: '/app/src/feed.ts', line: 12, column: 5, inApp: true };

describe('LoggerPanel', () => {
  describe('when a record has a context', () => {
    it('folds the context behind a closed "Show context" toggle that needs no script', () => {
      const html = panelFor([{ time: 0, level: 'info', channel: 'request', message: 'Matched route "home".', context: { route: 'home' } }]);
      assert.match(
        html,
        /<div class="log-metadata"><details class="log-context"><summary><span class="toggle-show">Show context<\/span><span class="toggle-hide">Hide context<\/span><\/summary><pre>{\n {2}&quot;route&quot;: &quot;home&quot;\n}<\/pre><\/details><\/div>/,
      );
      assert.doesNotMatch(html, /<details[^>]* open|<script|onclick/);
    });

    it("gives an error's trace its own toggle beside the context's, not inside it", () => {
      const html = panelFor([{ time: 0, level: 'error', channel: 'app', message: 'feed failed', context: { exception: { class: 'Error', message: 'boom', trace: [FRAME] } } }]);
      assert.match(html, /<\/pre><\/details><details class="log-trace"><summary><span class="toggle-show">Show trace \(exception\)<\/span><span class="toggle-hide">Hide trace \(exception\)<\/span><\/summary><pre>at Feed\.load \(\/app\/src\/feed\.ts:12\)<\/pre><\/details>/);
      assert.doesNotMatch(html, /&quot;trace&quot;/);
    });

    it('escapes the context it folds', () => {
      const html = panelFor([{ time: 0, level: 'info', channel: 'app', message: 'm', context: { q: '<script>alert(1)</script>' } }]);
      assert.match(html, /&quot;q&quot;: &quot;&lt;script>alert\(1\)&lt;\/script>&quot;/);
      assert.doesNotMatch(html, /<script>/);
    });
  });

  it('says how many records a request logged past those it keeps', () => {
    const html = panelFor([{ time: 0, level: 'info', channel: 'app', message: 'tick', context: {} }], 15_000);
    assert.match(html, /<p class="empty">15000 later messages were not kept: a request keeps its first 10000\.<\/p>/);
    assert.doesNotMatch(panelFor([]), /not kept/);
  });

  it('writes no toggle for a record without context, as the reference', () => {
    const html = panelFor([{ time: 0, level: 'info', channel: 'app', message: 'plain', context: {} }]);
    assert.match(html, /<td>plain<\/td>/);
    assert.doesNotMatch(html, /log-metadata|Show context/);
  });
});
