import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { loadReferenceCaptures, type ReferenceCapture } from '../helpers/reference-captures.js';
import { rawRequest, type RawResponse } from '../helpers/raw-http.js';
import { startDemo, type RunningDemo } from '../helpers/start-demo.js';

/**
 * Replays the reference system's recorded exchanges (test/fixtures/reference/<set>/) against keel and compares
 * what a client can observe: status, header names and their order, header values, the error message in
 * the page, JSON bodies and redirect targets. Tolerated: tokens, dates, file paths and line numbers, and
 * the reference's PHP class namespaces (`Symfony\...\NotFoundHttpException` is `NotFoundHttpException`).
 */

// node:http's framing and connection headers; the recording server's own Host/Connection are already dropped.
const FRAMING = new Set(['content-length', 'connection', 'keep-alive', 'transfer-encoding']);

// Pages of the reference's own profiler UI: their markup is the profiler's business (its own suite), but
// the wrapper pages are compared: see the status and headers checks below.
const NOT_COMPARED = new Map<string, string>([
  ['404_profiler_latest', 'the profiler UI page itself: compared by the profiler suite, not byte for byte'],
]);

function normaliseValue(name: string, value: string): string {
  const lower = name.toLowerCase();
  if (lower === 'date') return '<date>';
  if (lower === 'x-debug-token' || lower === 'x-previous-debug-token') return value.replace(/^[0-9a-f]{6}$/, '<token>');
  if (lower === 'x-debug-token-link') return value.replace(/[0-9a-f]{6}$/, '<token>');
  if (lower === 'x-debug-exception-file') return value.replace(/^.*:\d+$/, '<file>:<line>');
  if (lower === 'set-cookie') return value.replace(/^(sf_redirect)=[^;]*/, '$1=<record>');
  return value;
}

function appHeaders(headers: [string, string][]): [string, string][] {
  return headers.filter(([name]) => !FRAMING.has(name.toLowerCase())).map(([name, value]) => [name, normaliseValue(name, value)]);
}

function firstComment(body: string): string | undefined {
  return /^<!-- (.*) -->$/m.exec(body)?.[1];
}

async function replay(port: number, capture: ReferenceCapture): Promise<RawResponse> {
  return rawRequest(port, { method: capture.method, path: capture.path, headers: capture.requestHeaders });
}

function compare(capture: ReferenceCapture, actual: RawResponse): void {
  assert.equal(actual.status, capture.status, 'status');
  assert.deepEqual(appHeaders(actual.headers), appHeaders(capture.headers), 'headers, their order and their values');
  const expectedComment = firstComment(capture.body);
  if (expectedComment !== undefined) {
    assert.equal(firstComment(actual.body), expectedComment, 'the error title in the leading comment');
  }
  if (capture.headers.some(([name, value]) => name.toLowerCase() === 'content-type' && value.startsWith('application/json'))) {
    const expected = JSON.parse(capture.body) as Record<string, unknown>;
    const got = JSON.parse(actual.body) as Record<string, unknown>;
    for (const key of ['type', 'title', 'status', 'detail']) assert.deepEqual(got[key], expected[key], `JSON ${key}`);
    if ('class' in expected) assert.equal(String(got.class), String(expected.class).split('\\').pop(), 'JSON class');
  }
  if (capture.headers.some(([name, value]) => name.toLowerCase() === 'content-type' && value.startsWith('text/xml'))) {
    const element = (xml: string, tag: string): string | undefined => new RegExp(`<${tag}>(.*?)</${tag}>`).exec(xml)?.[1];
    for (const tag of ['type', 'title', 'status', 'detail']) assert.equal(element(actual.body, tag), element(capture.body, tag), `XML ${tag}`);
  }
  // Escaped as the reference's htmlspecialchars() escapes them: the same bytes.
  const title = /<title>(.*)<\/title>/.exec(capture.body)?.[1];
  if (title !== undefined && capture.status >= 400) assert.equal(/<title>(.*)<\/title>/.exec(actual.body)?.[1], title, 'page title');
  const h2 = /<h2>(.*)<\/h2>/.exec(capture.body)?.[1];
  if (h2 !== undefined) assert.equal(decodeEntities(/<h2>(.*?)<\/h2>/.exec(actual.body)?.[1] ?? ''), decodeEntities(h2), 'generic page heading');
  if (capture.status >= 300 && capture.status < 400 && capture.body !== '') assert.equal(actual.body, capture.body, 'the redirect page, byte for byte');
}

const ENTITIES: Record<string, string> = { '&lt;': '<', '&gt;': '>', '&quot;': '"', '&#039;': "'", '&#39;': "'", '&amp;': '&' };

function decodeEntities(text: string): string {
  return text.replace(/&(lt|gt|quot|amp|#0?39);/g, (entity) => ENTITIES[entity] ?? entity);
}

for (const [set, env] of [
  ['dev', { APP_ENV: 'dev' }],
  // The reference without its toolbar (Symfony 5.4 then sends no X-Debug-Token-Link): the error formats
  // (XML, JSON, text, a JSON _format), HEAD, POST, a query string, a Referer, 405 and 500.
  ['dev-no-toolbar', { APP_ENV: 'dev', KEEL_TOOLBAR: '0' }],
  ['prod', { APP_ENV: 'prod' }],
] as const) {
  describe(`keel against the reference's recorded ${set} responses`, () => {
    let demo: RunningDemo;
    before(async () => {
      demo = await startDemo(env);
    });
    after(() => demo.close());

    for (const capture of loadReferenceCaptures(set)) {
      const reason = NOT_COMPARED.get(capture.name);
      if (reason !== undefined) {
        it(`${capture.name}: answers with the reference's status (${reason})`, async () => {
          assert.equal((await replay(demo.port, capture)).status, capture.status);
        });
        continue;
      }
      it(`${capture.name}: ${capture.method} ${capture.path} answers like the reference`, async () => {
        compare(capture, await replay(demo.port, capture));
      });
    }
  });
}
