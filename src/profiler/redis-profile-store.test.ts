import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { Redis } from 'ioredis';
import { freePort, startRedis, type RunningRedis } from '../../test/helpers/redis.js';
import { CompositeProfileStore, PartialSearchError } from './composite-profile-store.js';
import { MemoryProfileStore } from './memory-profile-store.js';
import { createTestProfile, describeProfileStoreContract } from './profile-store.contract.js';
import { RedisProfileStore } from './redis-profile-store.js';

let redis: RunningRedis;
let prefixes = 0;
const NOW = 1_800_000_000_000;

before(async () => {
  redis = await startRedis();
});

after(async () => {
  await redis.close();
});

function createStore(options: { maxRecords?: number; maxAge?: number; clock?: () => number } = {}) {
  const store = new RedisProfileStore({ url: redis.url, prefix: `test:${process.pid}:${++prefixes}:`, maxAge: Number.MAX_SAFE_INTEGER, clock: () => NOW, ...options });
  return { store, tearDown: () => store.purge().then(() => store.close()) };
}

describeProfileStoreContract('RedisProfileStore', async () => createStore());

describeProfileStoreContract('CompositeProfileStore over Redis', async () => {
  const { store, tearDown } = createStore();
  return { store: new CompositeProfileStore(new MemoryProfileStore(), store), tearDown };
});

describe('RedisProfileStore', () => {
  it('says what the connection said when a command fails: a refused connection, not only the retries spent', async () => {
    const port = await freePort();
    const store = new RedisProfileStore({ url: `redis://127.0.0.1:${port}` });
    try {
      await assert.rejects(store.find({ limit: 1 }), (error: Error) => {
        assert.match(error.message, new RegExp(`\\(the connection said: connect ECONNREFUSED 127\\.0\\.0\\.1:${port}\\)$`));
        return true;
      });
      await assert.rejects(store.read('abcdef'), /the connection said: connect ECONNREFUSED/);
    } finally {
      await store.close();
    }
  });

  it('stops, saying why, when the URL names a database the server does not have, instead of writing to database 0', async () => {
    const store = new RedisProfileStore({ url: `${redis.url}/99`, prefix: 'no-such-db:' });
    const client = new Redis(redis.url);
    try {
      await assert.rejects(store.write(createTestProfile('abc123')), /the connection said: ERR DB index is out of range/);
      assert.deepEqual(await client.keys('no-such-db:*'), []);
    } finally {
      client.disconnect();
      await store.close();
    }
  });

  // The client would queue the commands until it had failed to reconnect a few times: every profiler page
  // waited that long (~2 s) before showing what memory holds.
  it('answers searches and reads without sending them while its connection is down, memory\'s records listed at once', async () => {
    const client = new Redis(redis.url, { retryStrategy: () => 20 });
    client.on('error', () => {});
    const sent: string[] = [];
    const send = client.sendCommand.bind(client);
    Object.assign(client, { sendCommand: (...args: Parameters<typeof send>) => (sent.push(args[0].name), send(...args)) });
    const store = new CompositeProfileStore(new MemoryProfileStore(), new RedisProfileStore({ client, prefix: `test:${process.pid}:down:` }));
    let stopped = false;
    try {
      // Not events.once(): it rejects at the client's next 'error', and a reconnecting client emits one
      // (ECONNREFUSED) for each attempt while the server is down.
      const next = (event: string) => new Promise<void>((resolve) => client.once(event, () => resolve()));
      if (client.status !== 'ready') await next('ready');
      const closed = next('close');
      await redis.stop();
      stopped = true;
      await closed;
      store.add(createTestProfile('d0d0d0'));
      sent.length = 0;
      await assert.rejects(store.find({ limit: 10 }), (error: unknown) => {
        assert.ok(error instanceof PartialSearchError);
        assert.equal(error.message, 'not connected to Redis');
        assert.deepEqual(error.results.map((summary) => summary.token), ['d0d0d0']);
        return true;
      });
      await assert.rejects(store.read('abcdef'), /^Error: not connected to Redis$/);
      assert.equal(sent.length, 0, `no command sent or queued: ${sent.join()}`);
      const ready = next('ready');
      await redis.start();
      stopped = false;
      await ready;
      assert.deepEqual((await store.find({ limit: 10 })).map((summary) => summary.token), ['d0d0d0'], 'searched in Redis again once connected');
      assert.ok(sent.includes('zrevrangebyscore'));
    } finally {
      if (stopped) await redis.start();
      client.disconnect();
    }
  });

  it('keeps only the newest maxRecords records, deleting the others', async () => {
    const { store, tearDown } = createStore({ maxRecords: 3 });
    for (const token of ['000001', '000002', '000003', '000004', '000005']) await store.write(createTestProfile(token));
    assert.deepEqual((await store.find({ limit: 10 })).map((s) => s.token), ['000005', '000004', '000003']);
    assert.equal(await store.read('000001'), undefined);
    await tearDown();
  });

  it('keeps the newest records when the clock steps back, instead of trimming them as the oldest', async () => {
    const { store, tearDown } = createStore({ maxRecords: 3 });
    try {
      const tokens = ['000001', '000002', '000003', '000004', '000005'];
      for (const [i, token] of tokens.entries()) await store.write(createTestProfile(token, { time: NOW / 1000 + (i < 2 ? i : i - 3_600) }));
      assert.deepEqual((await store.find({ limit: 10 })).map((s) => s.token), ['000005', '000004', '000003']);
      for (const token of tokens.slice(2)) assert.equal((await store.read(token))?.token, token);
    } finally {
      await tearDown();
    }
  });

  it('drops records older than maxAge from the index and from reads', async () => {
    let now = NOW;
    const { store, tearDown } = createStore({ maxAge: 60, clock: () => now });
    await store.write(createTestProfile('000001', { time: NOW / 1000 }));
    now += 61_000;
    assert.equal(await store.read('000001'), undefined);
    await store.write(createTestProfile('000002', { time: now / 1000 }));
    assert.deepEqual((await store.find({ limit: 10 })).map((s) => s.token), ['000002']);
    await tearDown();
  });

  it('lists each record once while other instances write between its pages', async () => {
    const prefix = `test:${process.pid}:paging:`;
    const writer = new RedisProfileStore({ url: redis.url, prefix, clock: () => NOW });
    const token = (n: number) => n.toString(16).padStart(6, '0');
    for (let n = 1; n <= 450; n++) await writer.write(createTestProfile(token(n), { time: NOW / 1000 }));
    // Between each page of tokens and its summaries, another instance writes five more records.
    const client = new Redis(redis.url);
    const summaries = client.hmget.bind(client) as (...args: unknown[]) => Promise<(string | null)[]>;
    let added = 1000;
    Object.assign(client, {
      hmget: async (...args: unknown[]) => {
        for (let i = 0; i < 5; i++) await writer.write(createTestProfile(token(++added), { time: NOW / 1000 }));
        return summaries(...args);
      },
    });
    const reader = new RedisProfileStore({ client, prefix, clock: () => NOW });
    try {
      const listed = (await reader.find({ limit: 2000 })).map((summary) => summary.token);
      assert.equal(new Set(listed).size, listed.length, 'no record twice');
      for (let n = 1; n <= 450; n++) assert.ok(listed.includes(token(n)), token(n));
    } finally {
      await writer.purge();
      await Promise.all([writer.close(), client.quit()]);
    }
  });

  it('serves a record written by one instance to another, as behind a load balancer', async () => {
    const prefix = `test:${process.pid}:shared:`;
    const first = new CompositeProfileStore(new MemoryProfileStore(), new RedisProfileStore({ url: redis.url, prefix, clock: () => NOW }));
    const second = new CompositeProfileStore(new MemoryProfileStore(), new RedisProfileStore({ url: redis.url, prefix, clock: () => NOW }));
    await first.write(createTestProfile('0000aa', { time: NOW / 1000 }));
    await second.write(createTestProfile('0000bb', { time: NOW / 1000 + 1 }));
    assert.equal((await second.read('0000aa'))?.token, '0000aa');
    assert.deepEqual((await first.find({ limit: 10 })).map((s) => s.token), ['0000bb', '0000aa']);
    await first.purge();
    await Promise.all([first.close(), second.close()]);
  });

  // The stall lasts until the test resumes the server: a read that waited for it would never end, and the
  // test's own timeout would fail it.
  it('fails reads and closes within its command timeout while the server stalls, then serves again', { timeout: 20_000 }, async () => {
    const { store, tearDown } = createStore();
    await store.write(createTestProfile('5ba11e'));
    redis.pause();
    try {
      await assert.rejects(store.read('5ba11e'), /timed out/i);
      await assert.rejects(store.find({ limit: 5 }), /timed out/i);
    } finally {
      redis.resume();
    }
    assert.equal((await store.read('5ba11e'))?.token, '5ba11e');
    await tearDown();
  });

  it('closes while the server stalls, which it would otherwise wait for until the test times out', { timeout: 20_000 }, async () => {
    const store = new RedisProfileStore({ url: redis.url, prefix: `test:${process.pid}:${++prefixes}:` });
    await store.find({ limit: 1 });
    redis.pause();
    try {
      await store.close();
    } finally {
      redis.resume();
    }
  });

  // A stalled server answers nothing until the test resumes it: the refused write must fail at once, unsent,
  // where it would otherwise have been queued behind the others and timed out.
  it('refuses a write unsent while the stalled server holds maxUnanswered commands, and writes again once it answers', { timeout: 20_000 }, async () => {
    const store = new RedisProfileStore({ url: redis.url, prefix: `test:${process.pid}:${++prefixes}:`, maxAge: Number.MAX_SAFE_INTEGER, clock: () => NOW, maxUnanswered: 3 });
    try {
      // The script is loaded first, so that each write stalled below is one command, not one and its retry.
      await store.write(createTestProfile('000000'));
      redis.pause();
      let stalled: Promise<unknown>[] = [];
      try {
        stalled = ['000001', '000002', '000003'].map((token) => store.write(createTestProfile(token)).catch((error: unknown) => error));
        await assert.rejects(store.write(createTestProfile('000004')), /^Error: 3 commands sent to Redis still unanswered$/);
      } finally {
        redis.resume();
      }
      await Promise.all(stalled);
      // Answered after the stalled writes, which the server runs in the order sent: the queue is empty again.
      assert.equal((await store.read('000001'))?.token, '000001');
      assert.equal(await store.read('000004'), undefined);
      await store.write(createTestProfile('000005'));
      assert.equal((await store.read('000005'))?.token, '000005');
      await store.purge();
    } finally {
      await store.close();
    }
  });

  it('never builds a key from a malformed token', async () => {
    const client = new Redis(redis.url);
    const { store, tearDown } = createStore();
    assert.equal(await store.read('*'), undefined);
    await assert.rejects(store.write(createTestProfile('../x')), TypeError);
    assert.deepEqual(await client.keys('*record:../x'), []);
    await client.quit();
    await tearDown();
  });
});
