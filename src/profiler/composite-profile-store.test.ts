import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { useTemporaryDir } from '../../test/helpers/temporary-dir.js';
import { CompositeProfileStore, PartialSearchError } from './composite-profile-store.js';
import { FileProfileStore } from './file-profile-store.js';
import { MemoryProfileStore } from './memory-profile-store.js';
import { createTestProfile } from './profile-store.contract.js';

describe('CompositeProfileStore', () => {
  const temporaryDir = useTemporaryDir('keel-composite-');

  it('serves a staged record from memory, then from the durable store once written, and keeps no copy', async () => {
    const store = new CompositeProfileStore(new MemoryProfileStore(), new FileProfileStore({ dir: temporaryDir() }));
    const profile = createTestProfile('4ea1d5');
    store.add(profile);
    assert.equal(store.get('4ea1d5'), profile, 'readable the moment it is staged');
    const written = store.write(profile);
    assert.equal((await store.read('4ea1d5'))?.token, '4ea1d5', 'readable while the write is under way');
    await written;
    assert.equal(store.front.has('4ea1d5'), false, 'the memory front lets go of what the durable store holds');
    assert.deepEqual(await store.read('4ea1d5'), { ...profile, parent: undefined });
    assert.deepEqual((await store.find({ limit: 10 })).map((summary) => summary.token), ['4ea1d5']);
  });

  it('holds a record in memory until a store that cannot serve it yet has written it', async () => {
    let finish!: () => void;
    const released = new Promise<void>((resolve) => (finish = resolve));
    const slow = new MemoryProfileStore();
    const write = slow.write.bind(slow);
    slow.write = async (profile) => {
      await released;
      return write(profile);
    };
    const store = new CompositeProfileStore(new MemoryProfileStore(), slow);
    const profile = createTestProfile('51070e');
    const written = store.write(profile);
    assert.equal(await store.read('51070e'), profile, 'from memory while the write is pending');
    finish();
    await written;
    assert.equal(store.front.has('51070e'), false);
    assert.equal((await store.read('51070e'))?.token, '51070e');
  });

  it('keeps a record in memory when the durable store fails to write it', async () => {
    const failing = new MemoryProfileStore();
    failing.write = () => Promise.reject(new Error('disk full'));
    const store = new CompositeProfileStore(new MemoryProfileStore(), failing);
    const profile = createTestProfile('a2546b');
    await assert.rejects(store.write(profile), /disk full/);
    assert.equal(await store.read('a2546b'), profile);
  });

  it('keeps the bounds of the durable store for the records it failed to write: listed and read within maxAge, maxRecords listed in all', async () => {
    let now = 1_800_000_000_000;
    const clock = () => now;
    const failing = new MemoryProfileStore();
    failing.write = () => Promise.reject(new Error('disk full'));
    const durable = new MemoryProfileStore({ maxAge: 3600, clock });
    const store = new CompositeProfileStore(new MemoryProfileStore({ limit: 3, maxAge: 3600, clock }), failing, { maxRecords: 3 });
    for (const token of ['000001', '000002', '000003']) await assert.rejects(store.write(createTestProfile(token, { time: now / 1000 })));
    now += 7_200_000;
    assert.equal(await store.read('000001'), undefined);
    assert.deepEqual(await store.find({ limit: 10 }), []);
    failing.write = (profile) => durable.write(profile);
    failing.find = (query) => durable.find(query);
    for (const token of ['000004', '000005']) await store.write(createTestProfile(token, { time: now / 1000 }));
    failing.write = () => Promise.reject(new Error('disk full'));
    for (const token of ['000006', '000007']) await assert.rejects(store.write(createTestProfile(token, { time: now / 1000 })));
    assert.equal((await store.find({ limit: 10 })).length, 3);
  });

  it('lists first the records staged and not written yet, which will be written after all the durable store holds', async () => {
    const store = new CompositeProfileStore(new MemoryProfileStore(), new MemoryProfileStore());
    await store.write(createTestProfile('00000a', { time: 1_800_000_100 }));
    // A slow request, collected after 00000a was written though it started earlier: it is the newer.
    const slow = createTestProfile('00000b', { time: 1_800_000_050 });
    store.add(slow);
    assert.deepEqual((await store.find({ limit: 1 })).map((summary) => summary.token), ['00000b']);
    assert.deepEqual((await store.find({ limit: 10 })).map((summary) => summary.token), ['00000b', '00000a']);
    await store.write(slow);
    assert.deepEqual((await store.find({ limit: 10 })).map((summary) => summary.token), ['00000b', '00000a']);
  });

  it('lists a record it failed to write by time once a later one is written, not first for good, whatever the limit', async () => {
    const durable = new MemoryProfileStore();
    const write = durable.write.bind(durable);
    let failing = false;
    durable.write = (profile) => (failing ? Promise.reject(new Error('disk full')) : write(profile));
    const store = new CompositeProfileStore(new MemoryProfileStore(), durable);
    await store.write(createTestProfile('00000a', { time: 1_800_000_100 }));
    failing = true;
    await assert.rejects(store.write(createTestProfile('00000f', { time: 1_800_000_150 })));
    assert.deepEqual((await store.find({ limit: 10 })).map((summary) => summary.token), ['00000f', '00000a'], 'the newest while the outage lasts');
    failing = false;
    await store.write(createTestProfile('00000c', { time: 1_800_000_200 }));
    store.add(createTestProfile('00000d', { time: 1_800_000_110 }));
    const all = (await store.find({ limit: 10 })).map((summary) => summary.token);
    assert.deepEqual(all, ['00000d', '00000c', '00000f', '00000a']);
    for (let limit = 1; limit <= 4; limit++) assert.deepEqual((await store.find({ limit })).map((summary) => summary.token), all.slice(0, limit));
  });

  it('rejects a search the durable store fails with the matches it still holds in memory', async () => {
    const down = new MemoryProfileStore();
    down.write = () => Promise.reject(new Error('Connection is closed.'));
    down.find = () => Promise.reject(new Error('Connection is closed.'));
    const store = new CompositeProfileStore(new MemoryProfileStore(), down);
    await assert.rejects(store.write(createTestProfile('0000a1')));
    await assert.rejects(store.write(createTestProfile('0000a2', { statusCode: 500 })));
    const failure = await store.find({ limit: 10, statusCode: '404' }).then(
      () => assert.fail('the search succeeded'),
      (error: unknown) => error,
    );
    assert.ok(failure instanceof PartialSearchError);
    assert.equal(failure.message, 'Connection is closed.');
    assert.deepEqual(
      failure.results.map((summary) => summary.token),
      ['0000a1'],
    );
  });
});
