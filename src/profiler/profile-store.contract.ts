import assert from 'node:assert/strict';
import { afterEach, beforeEach, describe, it } from 'node:test';
import type { Profile } from './profile.js';
import type { ProfileStore } from './profile-store.js';

export function createTestProfile(token: string, overrides: Partial<Profile> = {}): Profile {
  return {
    token,
    parent: undefined,
    children: [],
    time: 1_800_000_000,
    method: 'GET',
    url: 'https://app.example.test/robots.txt',
    ip: '203.0.113.7',
    statusCode: 404,
    type: 'request',
    collectors: { request: { route: null, headers: { host: 'app.example.test' } } },
    ...overrides,
  };
}

/** The behaviour every ProfileStore promises; each implementation's test file runs it. */
export function describeProfileStoreContract(name: string, setUp: () => Promise<{ store: ProfileStore; tearDown?: () => Promise<void> }>): void {
  describe(`${name} (ProfileStore contract)`, () => {
    let store: ProfileStore;
    let tearDown: (() => Promise<void>) | undefined;

    beforeEach(async () => {
      ({ store, tearDown } = await setUp());
    });

    afterEach(async () => {
      await tearDown?.();
    });

    it('answers undefined for a token it never stored', async () => {
      assert.equal(await store.read('abcdef'), undefined);
    });

    it('reads back what was written, family links included', async () => {
      const profile = createTestProfile('a2546b', { parent: '4ea1d5', collectors: { exception: { chain: [{ message: 'x' }] } } });
      await store.write(profile);
      assert.deepEqual(await store.read('a2546b'), profile);
    });

    it('replaces a record written again under the same token, its summary too, and lists it once', async () => {
      await store.write(createTestProfile('4ea1d5'));
      await store.write(createTestProfile('000001'));
      await store.write(createTestProfile('4ea1d5', { children: ['a2546b'], statusCode: 500, url: 'https://app.example.test/new' }));
      assert.deepEqual((await store.read('4ea1d5'))?.children, ['a2546b']);
      // Where it is listed (its first place, or the newest) is the store's choice; what it says is not.
      const found = (await store.find({ limit: 10 })).map((s) => [s.token, s.statusCode, s.url]).sort();
      assert.deepEqual(found, [['000001', 404, 'https://app.example.test/robots.txt'], ['4ea1d5', 500, 'https://app.example.test/new']]);
      assert.deepEqual((await store.find({ limit: 10, statusCode: '500' })).map((s) => s.token), ['4ea1d5']);
      assert.deepEqual(await store.find({ limit: 10, url: 'robots.txt', statusCode: '500' }), []);
    });

    it('finds summaries newest first, up to the limit', async () => {
      for (const token of ['000001', '000002', '000003']) await store.write(createTestProfile(token));
      assert.deepEqual((await store.find({ limit: 2 })).map((s) => s.token), ['000003', '000002']);
      assert.deepEqual((await store.find({ limit: 10 }))[0], {
        token: '000003', ip: '203.0.113.7', method: 'GET', url: 'https://app.example.test/robots.txt',
        time: 1_800_000_000, parent: undefined, statusCode: 404, type: 'request',
      });
    });

    it('lists in the order records were written, whatever their times and the limit, as the reference reads its index from the end', async () => {
      // A slow request, written after a quicker one that started later: the newest is the one written last.
      await store.write(createTestProfile('00000a', { time: 1_800_000_100 }));
      await store.write(createTestProfile('00000b', { time: 1_800_000_090 }));
      assert.deepEqual((await store.find({ limit: 1 })).map((s) => s.token), ['00000b']);
      assert.deepEqual((await store.find({ limit: 10 })).map((s) => s.token), ['00000b', '00000a']);
    });

    it('filters by ip, method, status, url substring, url exclusion and time bounds', async () => {
      await store.write(createTestProfile('000001', { ip: '10.0.0.1', method: 'POST', statusCode: 200, url: 'https://a.test/login', time: 100 }));
      await store.write(createTestProfile('000002', { ip: '10.0.0.2', method: 'GET', statusCode: 404, url: 'https://a.test/robots.txt', time: 200 }));
      const tokens = async (query: object) => (await store.find({ limit: 10, ...query })).map((s) => s.token);
      assert.deepEqual(await tokens({ ip: '10.0.0.1' }), ['000001']);
      assert.deepEqual(await tokens({ method: 'GET' }), ['000002']);
      // Case-sensitive substrings, as the reference's storage compares them.
      assert.deepEqual(await tokens({ method: 'get' }), []);
      assert.deepEqual(await tokens({ method: 'OS' }), ['000001']);
      assert.deepEqual(await tokens({ statusCode: '40' }), ['000002']);
      assert.deepEqual(await tokens({ statusCode: '404' }), ['000002']);
      assert.deepEqual(await tokens({ url: 'robots' }), ['000002']);
      assert.deepEqual(await tokens({ url: '!robots' }), ['000001']);
      assert.deepEqual(await tokens({ start: 150 }), ['000002']);
      assert.deepEqual(await tokens({ end: 150 }), ['000001']);
      assert.deepEqual(await tokens({ type: 'request' }), ['000002', '000001']);
    });

    it('keeps a URL with commas and quotes intact', async () => {
      const url = 'https://a.test/search?q="a,b"';
      await store.write(createTestProfile('00000a', { url }));
      assert.equal((await store.find({ limit: 1 }))[0]?.url, url);
    });

    it('matches and lists a URL too long for an index line whole, its end included', async () => {
      const url = `https://app.example.test/?q=${'x'.repeat(5000)}TAILMARK`;
      await store.write(createTestProfile('00000b', { url }));
      await store.write(createTestProfile('00000c'));
      assert.deepEqual((await store.find({ limit: 10, url: 'TAILMARK' })).map((s) => [s.token, s.url]), [['00000b', url]]);
      assert.deepEqual((await store.find({ limit: 10, url: '!TAILMARK' })).map((s) => s.token), ['00000c']);
      assert.deepEqual((await store.find({ limit: 10 })).map((s) => s.url), ['https://app.example.test/robots.txt', url]);
    });

    it('forgets everything on purge', async () => {
      await store.write(createTestProfile('000001'));
      await store.purge();
      assert.equal(await store.read('000001'), undefined);
      assert.deepEqual(await store.find({ limit: 10 }), []);
    });
  });
}
