import assert from 'node:assert/strict';
import { fileURLToPath } from 'node:url';
import { describe, it } from 'node:test';
import { CompositeProfileStore } from '../composite-profile-store.js';
import { MemoryProfileStore } from '../memory-profile-store.js';
import type { ProfileQuery } from '../profile-store.js';
import { bodyOf, createProfiledApp } from '../profiled-app.fixture.js';

/** A store that counts every asynchronous access: the profiler pages must not reach it for malformed tokens. */
class SpyStore extends MemoryProfileStore {
  accesses: string[] = [];
  override async read(token: string) {
    this.accesses.push(`read ${token}`);
    return super.read(token);
  }
  override async find(query: ProfileQuery) {
    this.accesses.push('find');
    return super.find(query);
  }
}

describe('profiler routes', () => {
  it('answers an unknown token with a 200 "Token not found" page and no debug token of its own', async () => {
    const { get } = createProfiledApp();
    const response = await get('/_profiler/abcdef');
    assert.equal(response.status, 200);
    assert.match(bodyOf(response), /<h2>Token not found<\/h2>/);
    assert.match(bodyOf(response), /Token (&quot;|")abcdef(&quot;|") not found\./);
    assert.equal(response.headers.has('x-debug-token'), false);
  });

  it('answers latest on an empty store with the reference\'s "There are no profiles" page, not a missing token', async () => {
    const { get } = createProfiledApp();
    const response = await get('/_profiler/latest');
    assert.equal(response.status, 200);
    assert.match(bodyOf(response), /<h2>There are no profiles<\/h2>\s*<p>No profiles found\.<\/p>/);
    assert.doesNotMatch(bodyOf(response), /Token not found/);
  });

  for (const target of ['/_profiler/%3Cscript%3E', '/_profiler/..', '/_profiler/%00', `/_profiler/${'a'.repeat(300)}`, '/_profiler/ABCDEF']) {
    it(`answers the malformed token of ${target.slice(0, 30)} like an unknown one without touching the store`, async () => {
      const store = new SpyStore();
      const { get } = createProfiledApp({ store });
      const response = await get(target);
      assert.equal(response.status, 200);
      assert.match(bodyOf(response), /Token not found/);
      assert.doesNotMatch(bodyOf(response), /<script>/);
      assert.deepEqual(store.accesses, []);
    });
  }

  it('answers 503 naming the storage error when the store fails, on record pages, search and the toolbar', async () => {
    class DownStore extends MemoryProfileStore {
      override read(): Promise<never> {
        return Promise.reject(new Error('Connection is closed.\n    at internals'));
      }
      override find(): Promise<never> {
        return Promise.reject(new Error('Command timed out'));
      }
    }
    const { get } = createProfiledApp({ store: new DownStore() });
    for (const [path, reason] of [['/_profiler/abcdef', 'Connection is closed.'], ['/_profiler/latest', 'Command timed out'], ['/_profiler/empty/search/results?limit=5', 'Command timed out'], ['/_wdt/abcdef', 'Connection is closed.']] as const) {
      const response = await get(path);
      assert.equal(response.status, 503, path);
      // The first line of the storage's error in the message; the whole error stays below as its cause.
      assert.ok(bodyOf(response).includes(`<title>The profile storage is unavailable: ${reason} (503 Service Unavailable)</title>`), path);
    }
  });

  it('lists the records still in memory while a durable store is down, saying the others are missing', async () => {
    const down = new MemoryProfileStore();
    down.write = () => Promise.reject(new Error('connect ECONNREFUSED 127.0.0.1:6379'));
    down.find = () => Promise.reject(new Error('connect ECONNREFUSED 127.0.0.1:6379'));
    down.read = () => Promise.reject(new Error('connect ECONNREFUSED 127.0.0.1:6379'));
    const { get, profiler } = createProfiledApp({ store: new CompositeProfileStore(new MemoryProfileStore(), down) });
    const failed = await get('/robots.txt');
    await profiler.flush();
    const results = await get('/_profiler/empty/search/results?limit=10');
    assert.equal(results.status, 200);
    const page = bodyOf(results);
    assert.match(page, /The profile storage is unavailable \(connect ECONNREFUSED 127\.0\.0\.1:6379\): only the records this process still holds in memory are listed\./);
    assert.match(page, /2 results found/);
    assert.ok(page.includes(`>${failed.headers.get('x-debug-token')}</a>`));
    const latest = await get('/_profiler/latest');
    assert.equal(latest.status, 200);
    assert.ok(bodyOf(latest).includes(failed.headers.get('x-debug-token')!));
    // Nothing in memory matches: the failure is the answer.
    assert.equal((await get('/_profiler/empty/search/results?limit=10&status_code=500')).status, 503);
  });

  describe('after a request that failed with a 404', () => {
    async function failedRequest() {
      const app = createProfiledApp();
      const failed = await app.get('/robots.txt');
      return { ...app, failed, main: failed.headers.get('x-debug-token')!, sub: failed.headers.get('x-previous-debug-token')! };
    }

    it('opens both records on the exception panel', async () => {
      const { get, main, sub } = await failedRequest();
      assert.equal(main, '000002');
      assert.equal(sub, '000001');
      for (const token of [main, sub]) {
        const page = await get(`/_profiler/${token}`);
        assert.equal(page.status, 200);
        assert.match(bodyOf(page), /data-panel="exception"/);
        assert.match(bodyOf(page), /NotFoundHttpException/);
      }
    });

    it('shows the request panel with the session and the forward to the error sub-request', async () => {
      const { get, main, sub } = await failedRequest();
      const page = bodyOf(await get(`/_profiler/${main}?panel=request&type=request`));
      assert.match(page, /Session not used\./);
      assert.match(page, /Stateless check enabled/);
      assert.match(page, new RegExp(`Forwarded to ErrorController \\(<a href="/_profiler/${sub}">${sub}</a>\\)`));
      assert.match(page, /Sub Requests 1/);
    });

    it('never takes a panel name holding a stack-frame line for a frame of its error', async () => {
      const { get, main } = await failedRequest();
      // Read as a frame, this line would put this file's first lines on the page as a source excerpt
      // (and any other file, `.env` included, by its path).
      const fake = `\n    at x (${fileURLToPath(import.meta.url)}:1:1)\n`;
      const response = await get(`/_profiler/${main}?panel=${encodeURIComponent(fake)}`);
      assert.equal(response.status, 404);
      assert.doesNotMatch(response.headers.get('x-debug-exception-file') ?? '', /profiler-routes\.test\.ts/);
      assert.doesNotMatch(bodyOf(response), /node:assert\/strict/);
      assert.match(bodyOf(response), /profiler-routes\.ts/);
    });

    it('throws a 404 for a panel the record does not have, without profiling the answer', async () => {
      const { get, main } = await failedRequest();
      const response = await get(`/_profiler/${main}?panel=bogus`);
      assert.equal(response.status, 404);
      assert.equal(decodeURIComponent(response.headers.get('x-debug-exception') ?? ''), `Panel "bogus" is not available for token "${main}".`);
      assert.equal(response.headers.has('x-debug-token'), false);
    });

    it('resolves latest to the newest record of type request', async () => {
      const { get, main } = await failedRequest();
      const page = bodyOf(await get('/_profiler/latest?type=request'));
      assert.match(page, new RegExp(`Token <span class="token">${main}</span>`));
      // keel records requests only: the newest command record does not exist.
      const command = await get('/_profiler/latest?type=command');
      assert.equal(command.status, 200);
      assert.match(bodyOf(command), /<h2>There are no profiles<\/h2>\s*<p>No profiles found\.<\/p>/);
    });

    it('renders the exception body, profiled like the reference, and 404s for an unknown token', async () => {
      const { get, main } = await failedRequest();
      const body = await get(`/_profiler/${main}/exception`);
      assert.equal(body.status, 200);
      assert.match(bodyOf(body), /NotFoundHttpException/);
      assert.equal(body.headers.has('x-debug-token'), true);
      // A fragment: nothing for the toolbar to go into.
      assert.doesNotMatch(bodyOf(body), /<\/body>|sfwdt/);
      const unknown = await get('/_profiler/abcdef/exception');
      assert.equal(unknown.status, 404);
      assert.equal(decodeURIComponent(unknown.headers.get('x-debug-exception') ?? ''), 'Token "abcdef" does not exist.');
    });

    it('lists search results newest first, filtered', async () => {
      const { get } = await failedRequest();
      await get('/');
      const all = bodyOf(await get('/_profiler/empty/search/results?limit=10'));
      assert.deepEqual([...all.matchAll(/<a href="\/_profiler\/([0-9a-f]{6})">/g)].map((m) => m[1]), ['000003', '000002', '000001']);
      const filtered = bodyOf(await get('/_profiler/empty/search/results?status_code=404&url=robots&limit=10'));
      assert.deepEqual([...filtered.matchAll(/<a href="\/_profiler\/([0-9a-f]{6})">/g)].map((m) => m[1]), ['000002', '000001']);
    });

    it('serves the toolbar fragment, empty for "empty" and a 404 for an unknown token', async () => {
      const { get, main, sub } = await failedRequest();
      const toolbar = await get(`/_wdt/${main}`);
      assert.equal(toolbar.status, 200);
      assert.match(bodyOf(toolbar), new RegExp(`id="sfwdt${main}"`));
      // The page came from the error sub-request: the bar says so, as the reference's does.
      assert.match(bodyOf(toolbar), new RegExp(`Forwarded to ErrorController \\(<a href="/_profiler/${sub}">${sub}</a>\\)`));
      assert.equal(toolbar.headers.has('x-debug-token'), false);
      const empty = await get('/_wdt/empty');
      assert.deepEqual([empty.status, bodyOf(empty)], [200, '']);
      const unknown = await get('/_wdt/abcdef');
      assert.deepEqual([unknown.status, bodyOf(unknown)], [404, '']);
    });
  });

  it('redirects the home page to the search results, unprofiled', async () => {
    const { get } = createProfiledApp();
    const response = await get('/_profiler/');
    assert.equal(response.status, 302);
    assert.equal(response.headers.get('location'), '/_profiler/empty/search/results?limit=10');
    assert.equal(response.headers.has('x-debug-token'), false);
  });

  it('redirects a search to the results of its first hit', async () => {
    const { get } = createProfiledApp();
    await get('/robots.txt');
    const response = await get('/_profiler/search?ip=&method=GET&status_code=404&url=robots&start=&end=&limit=10&token=');
    assert.equal(response.headers.get('location'), '/_profiler/000002/search/results?ip=&method=GET&status_code=404&url=robots&start=&end=&limit=10');
  });

  it('writes the criteria back into the redirect with the bytes they came with, UTF-8 or not', async () => {
    const { get } = createProfiledApp();
    const response = await get('/_profiler/search?url=%FF%2Fa+b&ip=caf%C3%A9');
    assert.equal(response.headers.get('location'), '/_profiler/empty/search/results?ip=caf%C3%A9&url=%FF/a%20b');
  });

  it("shows an application's collector named as what every object has as any collector without a view: its data, its name in the menu", async () => {
    const names = ['toString', 'constructor', '__proto__'];
    const collectors = names.map((name) => ({ name, collect: () => ({ shown: `${name} data` }) }));
    const { get } = createProfiledApp({ collectors });
    const token = (await get('/')).headers.get('x-debug-token')!;
    for (const name of names) {
      const response = await get(`/_profiler/${token}?panel=${name}`);
      assert.equal(response.status, 200, name);
      assert.match(bodyOf(response), new RegExp(`<div id="panel" data-panel="${name}">.*${name} data`, 's'));
      assert.match(bodyOf(response), new RegExp(`data-panel-link="${name}" href="[^"]*">${name}</a>`));
    }
  });

  it('serves allow-listed stylesheets with a private ten-minute cache and nothing else', async () => {
    const { get } = createProfiledApp();
    const css = await get('/_profiler/assets/profiler.css');
    assert.equal(css.status, 200);
    assert.equal(css.headers.get('cache-control'), 'max-age=600, private');
    assert.match(css.headers.get('content-type') ?? '', /^text\/css/);
    for (const name of ['profiler.ts', '..%2F..%2Fpackage.json', 'profiler-routes.ts']) {
      assert.equal((await get(`/_profiler/assets/${name}`)).status, 404);
    }
  });
});
