import { drive } from '../lib/load.js';
import { readRss } from '../lib/proc-stat.js';
import { seedHeaderObject } from '../lib/seed.js';
import { startServer } from '../lib/server-process.js';

export interface MemoryOptions {
  totalRequests: number;
  /** The run stops early once RSS passes this (a leak would otherwise eat the machine), in bytes. */
  rssCeiling: number;
  sampleEvery: number;
  serverPrefix: string[];
  log: (line: string) => void;
}

export interface MemoryPoint {
  requests: number;
  rss: number;
  heapUsed: number;
}

/** Sends the seed request to a fresh keel in dev mode and samples its RSS and heap every `sampleEvery` requests. */
export async function runMemoryBench({ totalRequests, rssCeiling, sampleEvery, serverPrefix, log }: MemoryOptions): Promise<MemoryPoint[]> {
  const server = await startServer({ file: 'keel', env: { APP_ENV: 'dev' } }, serverPrefix);
  const points: MemoryPoint[] = [];
  try {
    const sample = async (requests: number): Promise<void> => {
      const { heapUsed } = await server.memory();
      const point = { requests, rss: readRss(server.pid), heapUsed };
      points.push(point);
      log(`  memory after ${requests} requests: RSS ${mb(point.rss)} MB, heap ${mb(point.heapUsed)} MB`);
    };
    await sample(0);
    for (let sent = 0; sent < totalRequests; ) {
      const amount = Math.min(sampleEvery, totalRequests - sent);
      await drive({ port: server.port, path: '/robots.txt', headers: seedHeaderObject(), amount, expectStatus: 404 });
      sent += amount;
      await sample(sent);
      if ((points.at(-1)?.rss ?? 0) > rssCeiling) {
        log(`  memory: stopped after ${sent} requests, RSS above the ${mb(rssCeiling)} MB ceiling`);
        break;
      }
    }
  } finally {
    await server.stop();
  }
  return points;
}

const mb = (bytes: number): string => (bytes / 1_048_576).toFixed(1);
