import { drive } from '../lib/load.js';
import { seedHeaderObject } from '../lib/seed.js';

export interface ReferenceRun {
  url: string;
  served: number;
  requestsPerSecond: number;
}

export interface ReferenceOptions {
  /** Where the reference application listens, e.g. `http://127.0.0.1:8766` (loopback only). */
  url: string;
  requests: number;
  log: (line: string) => void;
}

/**
 * The reference (the Symfony application keel reproduces, in dev mode on nginx + php-fpm), measured in the
 * same run instead of taken from a figure of another machine: the seed request, the same headers, from the
 * same load generator. Only its throughput: its CPU is spread over nginx and several php-fpm workers, which
 * are free to use every core, where each keel server gets one.
 */
export async function measureReference({ url, requests, log }: ReferenceOptions): Promise<ReferenceRun> {
  const { hostname, port, pathname } = new URL(url);
  if (hostname !== '127.0.0.1' && hostname !== 'localhost') throw new Error(`--reference must be a loopback URL, not ${url}`);
  if (pathname !== '/') throw new Error(`--reference names the application's root, not ${url}`);
  const options = { port: Number(port || 80), path: '/robots.txt', headers: seedHeaderObject(), connections: 8, expectStatus: 404 };
  // Warm: the reference builds its container and fills its caches on its first requests.
  await drive({ ...options, amount: Math.max(8, Math.floor(requests / 10)) });
  const { served, requestsPerSecond } = await drive({ ...options, amount: requests });
  log(`reference at ${url}: ${served} seed requests, ${requestsPerSecond.toFixed(1)} req/s`);
  return { url, served, requestsPerSecond };
}
