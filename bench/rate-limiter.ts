/**
 * Consumes per second of keel's limiters: each policy in memory, and over Redis on loopback next to
 * rate-limiter-flexible (RateLimiterMemory / RateLimiterRedis, fixed window) on the same server in the
 * same run, with the ratio keel / flexible. Starts its own redis-server (test/helpers/redis.ts).
 * Run: npm run bench:rate-limiter [-- --seconds 2 --concurrency 32]
 */
import { Redis } from 'ioredis';
import { RateLimiterMemory, RateLimiterRedis } from 'rate-limiter-flexible';
import type { RateLimiterConfig } from '../src/config/config.js';
import { RateLimiter } from '../src/rate-limiter/rate-limiter.js';
import { MemoryStorage } from '../src/rate-limiter/storage/memory-storage.js';
import { RedisStorage } from '../src/rate-limiter/storage/redis-storage.js';
import type { Storage } from '../src/rate-limiter/storage/storage.js';
import { startRedis } from '../test/helpers/redis.js';

const args = process.argv.slice(2);
const option = (name: string, fallback: number) => {
  const index = args.indexOf(`--${name}`);
  return index === -1 ? fallback : Number(args[index + 1]);
};
const SECONDS = option('seconds', 2);
const CONCURRENCY = option('concurrency', 32);
const KEYS = 1_000;
// Large enough that the run measures the accepted path, as most traffic is.
const LIMIT = 1_000_000_000;

const POLICIES: Record<string, RateLimiterConfig> = {
  fixed_window: { policy: 'fixed_window', limit: LIMIT, interval: 60 },
  sliding_window: { policy: 'sliding_window', limit: LIMIT, interval: 60 },
  token_bucket: { policy: 'token_bucket', limit: LIMIT, interval: 1, rate: { interval: 1, amount: 1 } },
};

/** Runs `consume` from CONCURRENCY loops for SECONDS and returns operations per second. */
async function measure(consume: (key: string) => Promise<unknown>): Promise<number> {
  for (let i = 0; i < 2_000; i++) await consume(`warm-${i % KEYS}`);
  let count = 0;
  const end = performance.now() + SECONDS * 1_000;
  const start = performance.now();
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async (_, lane) => {
      let i = lane;
      while (performance.now() < end) {
        await consume(`k-${i++ % KEYS}`);
        count++;
      }
    }),
  );
  return count / ((performance.now() - start) / 1_000);
}

function keel(policy: RateLimiterConfig, storage: Storage): (key: string) => Promise<unknown> {
  const limiter = new RateLimiter({ name: 'bench', config: policy, storage });
  return (key) => limiter.consume(key);
}

const rows: { case: string; 'ops/s': number; 'vs flexible': string }[] = [];
const add = (name: string, ops: number, peer?: number) => rows.push({ case: name, 'ops/s': Math.round(ops), 'vs flexible': peer === undefined ? '' : `${(ops / peer).toFixed(2)}×` });

const flexibleMemory = new RateLimiterMemory({ points: LIMIT, duration: 60 });
const flexMem = await measure((key) => flexibleMemory.consume(key));
for (const [name, policy] of Object.entries(POLICIES)) {
  const ops = await measure(keel(policy, new MemoryStorage()));
  add(`keel memory ${name}`, ops, name === 'fixed_window' ? flexMem : undefined);
}
add('rate-limiter-flexible memory (fixed window)', flexMem);

const redis = await startRedis();
try {
  const client = new Redis(redis.url);
  const flexibleRedis = new RateLimiterRedis({ storeClient: client, points: LIMIT, duration: 60, keyPrefix: 'flex' });
  const flexRedis = await measure((key) => flexibleRedis.consume(key));
  for (const [name, policy] of Object.entries(POLICIES)) {
    const storage = new RedisStorage({ url: redis.url, prefix: `bench-${name}:`, commandTimeout: 5_000 });
    await storage.ready();
    add(`keel redis ${name}`, await measure(keel(policy, storage)), name === 'fixed_window' ? flexRedis : undefined);
    await storage.close();
  }
  add('rate-limiter-flexible redis (fixed window)', flexRedis);
  client.disconnect();
} finally {
  await redis.close();
}

process.stdout.write(`rate limiter consumes, ${SECONDS} s per case, ${CONCURRENCY} concurrent callers, ${KEYS} keys, node ${process.version}\n`);
console.table(rows);
