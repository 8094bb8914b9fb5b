import assert from 'node:assert/strict';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { Request } from '../http/request.js';
import { CompositeProfileStore } from './composite-profile-store.js';
import { createProfileStore } from './create-profiler.js';
import { FileProfileStore } from './file-profile-store.js';
import { LazyProfileStore } from './lazy-profile-store.js';
import { MemoryProfileStore } from './memory-profile-store.js';
import { createProfiledApp, TEST_CONFIG } from './profiled-app.fixture.js';
import { createTestProfile } from './profile-store.contract.js';
import { Profiler } from './profiler.js';

describe('createProfileStore', () => {
  it('keeps records in memory only when storage is memory', () => {
    assert.ok(createProfileStore(TEST_CONFIG) instanceof MemoryProfileStore);
  });

  it('lists and reads a memory storage\'s records for KEEL_PROFILER_MAX_AGE only', async () => {
    let now = 1_800_000_000_000;
    const store = createProfileStore({ ...TEST_CONFIG, profiler: { ...TEST_CONFIG.profiler, maxAge: 60 } }, { clock: () => now });
    await store.write(createTestProfile('0000b1', { time: now / 1000 }));
    assert.equal((await store.read('0000b1'))?.token, '0000b1');
    now += 61_000;
    assert.equal(await store.read('0000b1'), undefined);
    assert.deepEqual(await store.find({ limit: 10 }), []);
  });

  it('puts Redis behind the ring buffer for a redis:// storage, loading its module only then', async () => {
    const store = createProfileStore({ ...TEST_CONFIG, profiler: { ...TEST_CONFIG.profiler, storage: 'redis://127.0.0.1:1' as 'file' } });
    assert.ok(store instanceof CompositeProfileStore);
    assert.ok(store.back instanceof LazyProfileStore);
    await store.close();
  });

  it('serves records from memory at once and writes them under var/profiler once the request has terminated', async () => {
    const varDir = await mkdtemp(join(tmpdir(), 'keel-var-'));
    try {
      const store = createProfileStore({ ...TEST_CONFIG, varDir, profiler: { ...TEST_CONFIG.profiler, storage: 'file' } });
      assert.ok(store instanceof CompositeProfileStore);
      const { kernel, profiler } = createProfiledApp({ store });
      const request = new Request({ method: 'GET', target: '/robots.txt', headers: { host: 'localhost' } });
      const response = await kernel.handle(request);
      assert.equal((await profiler.loadProfile('000002'))?.children[0], '000001');
      const durable = new FileProfileStore({ dir: join(varDir, 'profiler') });
      assert.equal(await durable.read('000002'), undefined);

      await kernel.terminate(request, response);
      await profiler.flush();
      const index = await readFile(join(varDir, 'profiler', 'index.csv'), 'utf8');
      assert.deepEqual(index.split('\n').filter(Boolean).map((line) => line.split(',').slice(0, 1).concat(line.split(',').slice(5, 8))), [
        ['000001', '000002', '404', 'request'],
        ['000002', '', '404', 'request'],
      ]);
      assert.equal((await durable.read('000001'))?.parent, '000002');
    } finally {
      await rm(varDir, { recursive: true, force: true });
    }
  });
});

describe('Profiler.flush', () => {
  it('waits for a write handed over while it wakes up, not only for those under way when it was called', async () => {
    // The second record is handed over a few microtask hops after the first write settled, while flush()
    // is being woken up by it. (A record handed over once flush() has looked for the last time is not
    // waited for: only the later hops, where that happens, are left unchecked.)
    for (let hops = 0; hops <= 2; hops++) {
      const first = createTestProfile('000001');
      const second = createTestProfile('000002');
      let releaseFirst!: () => void;
      let secondWritten = false;
      const store = new MemoryProfileStore();
      store.write = (profile) =>
        profile === first
          ? new Promise<void>((resolve) => (releaseFirst = resolve))
          : new Promise<void>((resolve) => setTimeout(() => ((secondWritten = true), resolve()), 5));
      const profiler = new Profiler({ store, collectors: [] });
      profiler.persist([first]);
      const flushing = profiler.flush().then(() => secondWritten);
      releaseFirst();
      let chain = Promise.resolve();
      for (let i = 0; i < hops; i++) chain = chain.then(() => undefined);
      void chain.then(() => profiler.persist([second]));
      assert.equal(await flushing, true, `handed over ${hops} hops after the first write settled`);
      await profiler.flush();
    }
  });
});
