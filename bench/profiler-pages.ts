/**
 * How fast the profiler's pages open: the seed request's record, panel by panel, the toolbar and the
 * search results, read one after the other as a developer clicking through them reads them. keel in dev
 * mode (bench/servers/keel.ts, pinned to its core as the other benchmarks pin it) and, with --reference,
 * the reference application's own profiler on a record of the same seed request. The figures are each
 * page's median and 90th-percentile time to the last byte, measured by this process over keep-alive
 * connections, and for keel the server's CPU time per page (from /proc/<pid>/stat); the reference's CPU is
 * spread over nginx and its php-fpm workers, so only its times are compared.
 *
 *   npm run bench:profiler-pages
 *   npm run bench:profiler-pages -- --reference=http://127.0.0.1:8766/ --reads=50
 */
import { Agent, request } from 'node:http';
import { parseArgs } from 'node:util';
import { pinProcesses } from './lib/pinning.js';
import { cpuMicrosBetween, readCpuTicks } from './lib/proc-stat.js';
import { seedHeaderObject } from './lib/seed.js';
import { startServer } from './lib/server-process.js';
import { median, percentile } from './lib/stats.js';
import { PROFILER_PAGES, pageTable, type PageTiming } from './report/profiler-pages.js';

const { values } = parseArgs({ options: { reference: { type: 'string' }, reads: { type: 'string', default: '100' } } });
const reads = Number(values.reads);
if (!Number.isInteger(reads) || reads < 5) throw new Error(`--reads must be an integer of at least 5, not ${values.reads}`);

interface Target {
  host: string;
  port: number;
  agent: Agent;
}

interface Answer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  bytes: number;
}

function get(target: Target, path: string, headers: Record<string, string>): Promise<Answer> {
  return new Promise((resolve, reject) => {
    request({ host: target.host, port: target.port, path, headers, agent: target.agent }, (res) => {
      let bytes = 0;
      res.on('data', (chunk: Buffer) => (bytes += chunk.length));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, bytes }));
      res.on('error', reject);
    })
      .on('error', reject)
      .end();
  });
}

/** Makes the seed request and returns the token of its record (the 404's, which links its error sub-request). */
async function seedToken(target: Target): Promise<string> {
  const answer = await get(target, '/robots.txt', seedHeaderObject());
  const token = answer.headers['x-debug-token'];
  if (answer.status !== 404 || typeof token !== 'string') throw new Error(`the seed request answered ${answer.status} without X-Debug-Token`);
  return token;
}

/** Reads each page `reads` times after a few unmeasured reads; `cpu` measures the server's CPU over them. */
async function timePages(target: Target, token: string, cpu?: () => number): Promise<PageTiming[]> {
  const headers = { accept: 'text/html', host: `${target.host}:${target.port}` };
  const timings: PageTiming[] = [];
  for (const page of PROFILER_PAGES) {
    const path = page.path(token);
    for (let i = 0; i < 5; i++) await get(target, path, headers);
    const times: number[] = [];
    let bytes = 0;
    const cpuBefore = cpu?.();
    for (let i = 0; i < reads; i++) {
      const start = process.hrtime.bigint();
      const answer = await get(target, path, headers);
      times.push(Number(process.hrtime.bigint() - start) / 1e6);
      if (answer.status !== 200) throw new Error(`${path} answered ${answer.status}`);
      bytes = answer.bytes;
    }
    const cpuMicros = cpuBefore === undefined ? undefined : (cpu!() - cpuBefore) / reads;
    timings.push({ page: page.name, p50: median(times), p90: percentile(times, 90), bytes, cpuMicros });
  }
  return timings;
}

function target(url: string): Target {
  const { hostname, port } = new URL(url);
  if (hostname !== '127.0.0.1' && hostname !== 'localhost') throw new Error(`--reference must be a loopback URL, not ${url}`);
  return { host: hostname, port: Number(port || 80), agent: new Agent({ keepAlive: true, maxSockets: 1 }) };
}

const pinning = pinProcesses();
const keel = await startServer({ file: 'keel', env: { APP_ENV: 'dev' } }, pinning.serverPrefix);
try {
  const keelTarget = target(`http://127.0.0.1:${keel.port}/`);
  const keelCpu = (): number => cpuMicrosBetween({ utime: 0, stime: 0 }, readCpuTicks(keel.pid));
  const keelTimings = await timePages(keelTarget, await seedToken(keelTarget), keelCpu);
  let referenceTimings: PageTiming[] | undefined;
  if (values.reference !== undefined) {
    const referenceTarget = target(values.reference);
    referenceTimings = await timePages(referenceTarget, await seedToken(referenceTarget));
  }
  process.stdout.write(`profiler pages of the seed request's record, ${reads} reads each, one at a time; keel dev, ${pinning.note}\n\n`);
  process.stdout.write(`${pageTable(keelTimings, referenceTimings)}\n`);
} finally {
  await keel.stop();
}
