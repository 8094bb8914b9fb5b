import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { bodyOf, createProfiledApp } from '../profiled-app.fixture.js';

async function failedRequest() {
  const app = createProfiledApp();
  const failed = await app.get('/robots.txt');
  return { ...app, main: failed.headers.get('x-debug-token')! };
}

describe('profiler fragments and files, as the reference serves them', () => {
  it('serves the search form alone at /_profiler/search_bar, filled from the query, unprofiled', async () => {
    const { get } = createProfiledApp();
    const response = await get('/_profiler/search_bar?ip=203.0.113.7');
    assert.equal(response.status, 200);
    assert.match(bodyOf(response), /<form[^>]*action="\/_profiler\/search"/);
    assert.match(bodyOf(response), /name="ip"[^>]*value="203\.0\.113\.7"|value="203\.0\.113\.7"[^>]*name="ip"/);
    assert.equal(response.headers.has('x-debug-token'), false);
  });

  it('serves the routing panel of a record at /_profiler/{token}/router, and 404 for an unknown token', async () => {
    const { get, main } = await failedRequest();
    const panel = await get(`/_profiler/${main}/router`);
    assert.equal(panel.status, 200);
    assert.match(bodyOf(panel), /^<div><h2>Routing<\/h2>/);
    assert.match(bodyOf(panel), /No route matched\./);
    assert.equal(panel.headers.has('x-debug-token'), false);
    const unknown = await get('/_profiler/abcdef/router');
    assert.equal(unknown.status, 404);
    assert.equal(decodeURIComponent(unknown.headers.get('x-debug-exception') ?? ''), 'Token "abcdef" does not exist.');
  });

  it('serves the exception stylesheet at /_profiler/{token}/exception.css, profiled as there', async () => {
    const { get, main } = await failedRequest();
    const css = await get(`/_profiler/${main}/exception.css`);
    assert.equal(css.status, 200);
    assert.match(css.headers.get('content-type') ?? '', /^text\/css/);
    assert.match(bodyOf(css), /\{[^}]*\}/);
    assert.match(css.headers.get('x-debug-token') ?? '', /^[0-9a-f]{6}$/);
  });

  it('opens a project source file at /_profiler/open, its line selected', async () => {
    const { get } = createProfiledApp();
    const page = await get('/_profiler/open?file=src/profiler/ui/profiler-fragments.test.ts&line=3');
    assert.equal(page.status, 200);
    assert.match(bodyOf(page), /<li id="line3" class="selected" value="3"><code>import \{ bodyOf, createProfiledApp \} from '..\/profiled-app.fixture.js';<\/code><\/li>/);
    assert.equal(page.headers.has('x-debug-token'), false);
  });

  for (const file of ['.env', 'src/../.env', '../etc/passwd', '/etc/passwd', 'package.json', 'var/log/dev.log', 'src/missing.ts', '']) {
    it(`refuses to open ${JSON.stringify(file)} with the reference's 404`, async () => {
      const { get } = createProfiledApp();
      const response = await get(`/_profiler/open?file=${encodeURIComponent(file)}&line=1`);
      assert.equal(response.status, 404);
      assert.equal(decodeURIComponent(response.headers.get('x-debug-exception') ?? ''), `The file "${file}" cannot be opened.`);
    });
  }

  it('redirects with the Content-Type first, and carries to the results only the criteria the search was given', async () => {
    const { get } = createProfiledApp();
    await get('/robots.txt');
    const response = await get('/_profiler/search?url=robots&limit=1');
    assert.equal(response.status, 302);
    assert.deepEqual([...response.headers].map(([name]) => name.toLowerCase()), ['content-type', 'cache-control', 'date', 'location']);
    assert.equal(response.headers.get('location'), '/_profiler/000002/search/results?url=robots&limit=1');
    assert.equal((await get('/_profiler/search')).headers.get('location'), '/_profiler/000002/search/results');
  });

  it('writes its redirects by the reference\'s URL generator rules', async () => {
    const { get } = createProfiledApp();
    await get('/robots.txt');
    const location = async (query: string) => (await get(`/_profiler/search?${query}`)).headers.get('location');
    assert.equal(await location('token=a:b'), '/_profiler/a:b');
    // Where the reference's generator fails (a token holding `/`), a path that shows no such token.
    assert.equal(await location('token=../..'), '/_profiler/..%2F..');
    assert.equal(await location('token=a@b,c;d=e+f!g*h|i'), '/_profiler/a@b,c;d=e%20f!g*h|i');
    assert.equal(await location('url=a%20b&ip=%3C'), '/_profiler/empty/search/results?ip=%3C&url=a%20b');
    assert.equal(await location('url=a:b/c@d'), '/_profiler/empty/search/results?url=a:b/c@d');
    // `0` is no token there (PHP's falsy string): the search runs.
    assert.equal(await location('token=0&limit=1'), '/_profiler/000002/search/results?limit=1');
    // Nor a criterion: the search runs unfiltered, its URL keeping what was given.
    assert.equal(await location('method=0&status_code=0&url=0&ip=0&limit=1'), '/_profiler/000002/search/results?ip=0&method=0&status_code=0&url=0&limit=1');
  });
});
