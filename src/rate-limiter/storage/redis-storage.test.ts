import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { Redis } from 'ioredis';
import { startRedis, type RunningRedis } from '../../../test/helpers/redis.js';
import { GuardedStorage, StorageUnavailableError } from './guarded-storage.js';
import { RedisStorage } from './redis-storage.js';
import { describeStorageContract } from './storage.contract.js';

let redis: RunningRedis;

describeStorageContract('RedisStorage', async () => {
  redis = await startRedis();
  const storage = new RedisStorage({ url: redis.url });
  await storage.ready();
  return {
    storage,
    tearDown: async () => {
      await storage.close();
      await redis.close();
    },
  };
});

/**
 * Takes one token of `spec` at `prefix` through a storage of its own with the default timeouts, which also
 * loads the reservation script into the server: a test whose storage has timeouts of a few tens of ms, to be
 * tested while the server is stalled, does not depend on a loaded machine answering its first command in time.
 */
async function firstHit(url: string, prefix: string, spec: Parameters<RedisStorage['reserve']>[1]): Promise<number> {
  const storage = new RedisStorage({ url, prefix });
  try {
    return (await storage.reserve('x', spec, 1, Date.now() / 1000, -1)).remaining;
  } finally {
    await storage.close();
  }
}

describe('RedisStorage', () => {
  let server: RunningRedis;
  before(async () => {
    server = await startRedis();
  });
  after(async () => {
    await server.close();
  });

  it('keeps each limiter id in one hash-tagged key that expires with its window', async () => {
    const storage = new RedisStorage({ url: server.url, prefix: 'test:' });
    await storage.ready();
    await storage.reserve('api-1.2.{3}.4', { policy: 'fixed_window', limit: 5, interval: 30 }, 1, Date.now() / 1000, -1);
    const client = new Redis(server.url);
    try {
      assert.deepEqual(await client.keys('test:*'), ['test:{api-1.2.%7B3%7D.4}']);
      const ttl = await client.pttl('test:{api-1.2.%7B3%7D.4}');
      assert.ok(ttl > 29_000 && ttl <= 30_001, `ttl ${ttl}`);
    } finally {
      client.disconnect();
      await storage.close();
    }
  });

  it('decides as the memory storage on windows too long for a Redis expiry, and still gives the key one', async () => {
    const storage = new RedisStorage({ url: server.url, prefix: 'huge:' });
    const spec = { policy: 'token_bucket', limit: 1e9, interval: 31_536_000 } as const;
    const client = new Redis(server.url);
    try {
      const decision = await storage.reserve('k', spec, 1e9, Date.now() / 1000, -1);
      assert.deepEqual([decision.accepted, decision.remaining], [true, 0]);
      const ttl = await client.pttl('huge:{k}');
      assert.ok(ttl > 0, `ttl ${ttl}`);
    } finally {
      client.disconnect();
      await storage.close();
    }
  });

  it('waits for the first connection, even once its socket is open and the ready check still pending', async () => {
    const client = new Redis(server.url, { enableOfflineQueue: false, maxRetriesPerRequest: 0, lazyConnect: true });
    const storage = new RedisStorage({ client, prefix: 'first:', commandTimeout: 1_000 });
    try {
      // The moment the socket opens: status `connect`, where a command would be refused at once.
      const decided = new Promise((resolve, reject) => {
        client.once('connect', () => storage.reserve('x', { policy: 'fixed_window', limit: 5, interval: 30 }, 1, Date.now() / 1000, -1).then(resolve, reject));
      });
      await client.connect();
      assert.equal(((await decided) as { accepted: boolean }).accepted, true);
    } finally {
      client.disconnect();
    }
  });

  for (const spec of [
    { policy: 'fixed_window', limit: 5, interval: 30 },
    { policy: 'sliding_window', limit: 5, interval: 30 },
    { policy: 'token_bucket', limit: 5, interval: 30, rate: { interval: 30, amount: 1 } },
  ] as const) {
    it(`gives back the tokens of a ${spec.policy} reservation abandoned at the deadline that the stalled server made later`, async () => {
      const storage = new RedisStorage({ url: server.url, prefix: `late:${spec.policy}:`, commandTimeout: 1_000, replyTimeout: 30_000 });
      const guarded = new GuardedStorage(storage, { timeout: 100 });
      await storage.ready();
      const available = async () => (await storage.reserve('x', spec, 0, Date.now() / 1000, -1)).remaining;
      try {
        assert.equal(await firstHit(server.url, `late:${spec.policy}:`, spec), 4);
        server.pause();
        try {
          await assert.rejects(guarded.reserve('x', spec, 2, Date.now() / 1000, -1), StorageUnavailableError);
        } finally {
          server.resume();
        }
        // The late reservation runs once the server goes on, then its refund: the count ends where it was.
        let left = await available();
        for (let attempt = 0; attempt < 100 && left !== 4; attempt++) {
          await new Promise((resolve) => setTimeout(resolve, 20));
          left = await available();
        }
        assert.equal(left, 4);
      } finally {
        await storage.close();
      }
    });
  }

  // Paused, the server answers none of them: each command times out, and is still held by the connection.
  it('fails a reservation unsent while the stalled server holds maxUnanswered commands, timed out or not, and sends again once it answers', async () => {
    const spec = { policy: 'fixed_window', limit: 5, interval: 30 } as const;
    const storage = new RedisStorage({ url: server.url, prefix: 'held:', commandTimeout: 50, replyTimeout: 100, maxUnanswered: 3 });
    await storage.ready();
    try {
      // The script is loaded first, so that each reservation below is one command, not one and its retry.
      await firstHit(server.url, 'held:', spec);
      server.pause();
      try {
        for (let i = 0; i < 3; i++) await assert.rejects(storage.reserve('x', spec, 1, Date.now() / 1000, -1), /timed out/);
        await assert.rejects(storage.reserve('x', spec, 1, Date.now() / 1000, -1), /^Error: 3 commands sent to Redis still unanswered$/);
      } finally {
        server.resume();
      }
      // Sent again once the three held ones are answered, which the server then runs: 1 + 3 hits, the refused one none.
      let remaining: number | undefined;
      for (let waited = 0; waited < 10_000 && remaining === undefined; waited += 20) {
        remaining = await storage.reserve('x', spec, 0, Date.now() / 1000, -1).then((decision) => decision.remaining, () => undefined);
        if (remaining === undefined) await new Promise((resolve) => setTimeout(resolve, 20));
      }
      assert.equal(remaining, 1);
    } finally {
      await storage.close();
    }
  });

  it('stops, saying why, when the URL names a database the server does not have, instead of counting in database 0', async () => {
    const storage = new RedisStorage({ url: `${server.url}/99`, prefix: 'no-such-db:' });
    const client = new Redis(server.url);
    try {
      await assert.rejects(storage.reserve('x', { policy: 'fixed_window', limit: 5, interval: 30 }, 1, Date.now() / 1000, -1));
      assert.match(storage.lastError()?.message ?? '', /DB index is out of range/);
      assert.deepEqual(await client.keys('no-such-db:*'), []);
    } finally {
      client.disconnect();
      await storage.close();
    }
  });

  it('rejects ready(), saying why, once the client has ended, as it does when the client ends while awaited', async () => {
    const storage = new RedisStorage({ url: `${server.url}/99` });
    try {
      await assert.rejects(storage.ready(), /^Error: redis connection ended \(the connection said: ERR DB index is out of range\)$/);
      // Ended now, the client emits nothing more: a promise waiting for its events is still pending a turn later.
      const pending = Symbol('pending');
      const outcome = await Promise.race([storage.ready().catch((error: unknown) => error), new Promise((resolve) => setImmediate(() => resolve(pending)))]);
      assert.notEqual(outcome, pending, 'ready() settled');
      assert.match(String(outcome), /^Error: redis connection ended \(the connection said: ERR DB index is out of range\)$/);
    } finally {
      await storage.close();
    }
  });

  it('fails at once instead of queueing while the server is unreachable', async () => {
    const storage = new RedisStorage({ url: 'redis://127.0.0.1:1', commandTimeout: 200 });
    try {
      await assert.rejects(storage.reserve('x', { policy: 'fixed_window', limit: 5, interval: 30 }, 1, 1, -1));
    } finally {
      await storage.close();
    }
  });
});
