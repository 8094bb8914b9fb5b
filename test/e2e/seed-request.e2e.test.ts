import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { rawRequest, type RawResponse } from '../helpers/raw-http.js';
import { SEED_BASE_URL, seedHeaders } from '../helpers/seed-request.js';
import { startDemo, type RunningDemo } from '../helpers/start-demo.js';

// Added by node:http for framing and connection management, not by the application.
const FRAMING = new Set(['content-length', 'connection', 'keep-alive', 'transfer-encoding']);

function appHeaderNames(response: RawResponse): string[] {
  return response.headerNames().filter((name) => !FRAMING.has(name.toLowerCase()));
}

const TOKEN = /^[0-9a-f]{6}$/;
const HTTP_DATE = /^[A-Z][a-z]{2}, \d{2} [A-Z][a-z]{2} \d{4} \d{2}:\d{2}:\d{2} GMT$/;

describe('the seed request: GET /robots.txt through a trusted HTTPS reverse proxy, in dev', () => {
  let demo: RunningDemo;
  let response: RawResponse;

  before(async () => {
    demo = await startDemo();
    response = await rawRequest(demo.port, { path: '/robots.txt', headers: seedHeaders() });
  });
  after(() => demo.close());

  it('answers 404 with the reference\'s headers in the reference\'s order', () => {
    assert.equal(response.status, 404);
    assert.deepEqual(appHeaderNames(response), [
      'Content-Type',
      'X-Debug-Exception',
      'X-Debug-Exception-File',
      'Vary',
      'Cache-Control',
      'Date',
      'X-Debug-Token',
      'X-Debug-Token-Link',
      'X-Robots-Tag',
      'X-Previous-Debug-Token',
    ]);
  });

  it('gives each header the reference\'s value', () => {
    assert.equal(response.header('content-type'), 'text/html; charset=UTF-8');
    assert.equal(response.header('x-debug-exception'), 'No%20route%20found%20for%20%22GET%20https%3A%2F%2Fapp.example.test%2Frobots.txt%22');
    assert.match(response.header('x-debug-exception-file') ?? '', /^%2F.*router-listener\.ts:\d+$/);
    assert.equal(response.header('vary'), 'Accept');
    assert.equal(response.header('cache-control'), 'no-cache, private');
    assert.match(response.header('date') ?? '', HTTP_DATE);
    assert.equal(response.header('x-robots-tag'), 'noindex');
    assert.equal(response.header('set-cookie'), undefined);
  });

  it('links the main request\'s record and names the error sub-request\'s record as previous', () => {
    const token = response.header('x-debug-token') ?? '';
    const previous = response.header('x-previous-debug-token') ?? '';
    assert.match(token, TOKEN);
    assert.match(previous, TOKEN);
    assert.notEqual(token, previous);
    assert.equal(response.header('x-debug-token-link'), `${SEED_BASE_URL}/_profiler/${token}`);
  });

  it('renders the debug page with the title as a comment first and last', () => {
    const title = 'No route found for &quot;GET https://app.example.test/robots.txt&quot; (404 Not Found)';
    assert.ok(response.body.startsWith(`<!-- ${title} -->\n<!DOCTYPE html>`), response.body.slice(0, 200));
    assert.ok(response.body.trimEnd().endsWith(`</html>\n<!-- ${title} -->`), response.body.slice(-200));
    assert.match(response.body, new RegExp(`<title>${title.replace(/[()]/g, '\\$&')}</title>`));
    assert.match(response.body, /NotFoundHttpException/);
    assert.match(response.body, /No routes found for &quot;\/robots.txt\/&quot;\./);
  });

  it('writes the reference\'s log line to var/log/dev.log', async () => {
    await demo.app.logger.flush();
    const log = readFileSync(join(demo.projectDir, 'var', 'log', 'dev.log'), 'utf8');
    const line = log.split('\n').find((l) => l.includes('request.ERROR'));
    assert.ok(line, log);
    assert.match(
      line,
      /^\[\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}\+00:00\] request\.ERROR: Uncaught PHP Exception NotFoundHttpException: "No route found for "GET https:\/\/app\.example\.test\/robots\.txt"" at router-listener\.ts line \d+ \{"exception":"\[object\] \(NotFoundHttpException\(code: 0\): No route found for \\"GET https:\/\/app\.example\.test\/robots\.txt\\" at .*router-listener\.ts:\d+\)\\n\[previous exception\] \[object\] \(ResourceNotFoundException\(code: 0\): No routes found for \\"\/robots\.txt\/\\"\. at .*matcher\.ts:\d+\)"\} \[\]$/,
    );
  });

  it('serves both records by token, each linked to the other', async () => {
    const token = response.header('x-debug-token')!;
    const previous = response.header('x-previous-debug-token')!;
    const main = await rawRequest(demo.port, { path: `/_profiler/${token}?panel=request`, headers: seedHeaders() });
    const sub = await rawRequest(demo.port, { path: `/_profiler/${previous}?panel=request`, headers: seedHeaders() });
    assert.equal(main.status, 200);
    assert.equal(sub.status, 200);
    assert.match(main.body, /robots\.txt/);
    assert.ok(main.body.includes(previous), 'the main record names its sub-request');
    assert.ok(sub.body.includes(token), 'the sub-request record names its parent');
    assert.equal(main.header('x-debug-token'), undefined, 'profiler pages are not profiled');
  });
});
