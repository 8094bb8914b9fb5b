import assert from 'node:assert/strict';
import { readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import autocannon from 'autocannon';
import { sendRaw } from '../helpers/raw-http.js';
import { SEED_HEADERS } from '../helpers/seed-request.js';
import { indexLinesBound, MAX_BATCH } from '../../src/profiler/file-store-sizing.js';
import { spawnDemo } from '../faults/demo-process.js';

export interface SoakOptions {
  /** Total requests sent. */
  amount: number;
  connections: number;
  /** Records the profiler keeps (its bound); must hold the last 1 000 responses' records. */
  maxRecords?: number;
}

export interface SoakReport {
  requests: number;
  durationSeconds: number;
  requestsPerSecond: number;
  connectionErrors: number;
  timeouts: number;
  byStatus: Record<string, number>;
  /** Resident set size of the server, sampled every second, in MiB. */
  rssSamples: number[];
  rssWarmMiB: number;
  rssEndMiB: number;
  maxRecords: number;
  indexLines: number;
  /** Rings of record files: one per process writing (the soak's server is one). */
  ringFolders: number;
  /** Files in the rings, read or not: a ring overwrites its files once it comes round. */
  recordFiles: number;
  /** Anything else in the store's directory (a temporary file, a stray folder): none is expected. */
  otherEntries: number;
  tokensChecked: number;
  /** The first few connection errors autocannon saw, for diagnosis. */
  errorSamples: string[];
  tokensOpenable: number;
  latencyP99Ms: number;
}

const seed = Object.fromEntries(SEED_HEADERS);
// The mix, cycled by every connection: the seed's 404, a 405, matched routes, a redirect, JSON, and the
// profiler's own pages (which read the store while it is being written).
const MIX: { method: 'GET' | 'POST' | 'DELETE'; path: string }[] = [
  { method: 'GET', path: '/robots.txt' },
  { method: 'GET', path: '/about' },
  { method: 'GET', path: '/login' },
  { method: 'GET', path: '/api/status' },
  { method: 'GET', path: '/blog' },
  { method: 'POST', path: '/items/12' },
  { method: 'GET', path: '/robots.txt' },
  { method: 'DELETE', path: '/items/7' },
  { method: 'GET', path: '/_profiler/latest' },
  { method: 'GET', path: '/' },
  { method: 'GET', path: '/_profiler/empty/search/results?limit=10' },
  { method: 'GET', path: '/no/such/page' },
];

/**
 * Runs the demo app in dev (profiler on, file storage) as a child process and sends it `amount` mixed
 * requests over `connections` keep-alive connections to 127.0.0.1, sampling the server's RSS; then checks
 * the profiler storage and opens the records of the last 1 000 responses.
 */
export async function runSoak({ amount, connections, maxRecords = 4000 }: SoakOptions): Promise<SoakReport> {
  const demo = await spawnDemo({ env: { APP_ENV: 'dev', KEEL_PROFILER_MAX_RECORDS: String(maxRecords), RATE_LIMIT_DEFAULT_LIMIT: '100000000' } });
  const rssSamples: number[] = [];
  const sampler = setInterval(() => rssSamples.push(demo.rss() / 1048576), 1000);
  const lastTokens: string[] = [];
  const remember = (_status: number, _body: string, _context: object, headers: Record<string, string | string[] | undefined> = {}): void => {
    // autocannon keeps the header names as sent.
    const token = headers['X-Debug-Token'] ?? headers['x-debug-token'];
    if (typeof token !== 'string') return;
    lastTokens.push(token);
    if (lastTokens.length > 2000) lastTokens.splice(0, 1000);
  };
  const errorSamples: string[] = [];
  try {
    const result = await new Promise<autocannon.Result>((resolve, reject) => {
      const tracker = autocannon(
        {
          url: `http://127.0.0.1:${demo.port}`,
          connections,
          amount,
          timeout: 30,
          headers: seed,
          requests: MIX.map((request) => ({ ...request, onResponse: remember })),
        },
        (error, finished) => (error ? reject(error) : resolve(finished)),
      );
      tracker.on('reqError', (error: Error) => {
        if (errorSamples.length < 10) errorSamples.push(`${new Date().toISOString()} ${error.message}`);
      });
    });
    clearInterval(sampler);
    // Let the server finish writing the profiles of the last responses (terminate runs after the response).
    await waitForQuiet(demo.projectDir);

    const tokens = lastTokens.slice(-1000);
    let openable = 0;
    for (const token of tokens) {
      const page = await sendRaw(demo.port, `GET /_profiler/${token} HTTP/1.1\r\nhost: app.example.test\r\nconnection: close\r\n\r\n`);
      if (page.status === 200 && page.body.includes(token) && !page.body.includes('Token not found')) openable++;
    }
    // Stopped first (SIGTERM flushes pending writes), so that the files are counted at rest.
    await demo.close({ keepDir: true });
    const storage = inspectStorage(join(demo.projectDir, 'var', 'profiler'));
    rmSync(demo.projectDir, { recursive: true, force: true });
    // The heap grows to its working size over the first part of a run; flat means flat after that.
    const warm = rssSamples.slice(Math.floor(rssSamples.length * 0.5), Math.floor(rssSamples.length * 0.6));
    const end = rssSamples.slice(Math.floor(rssSamples.length * 0.9));
    const byStatus = Object.fromEntries(Object.entries(result.statusCodeStats ?? {}).map(([status, stats]) => [status, stats.count ?? 0]));
    return {
      requests: result.requests.total,
      durationSeconds: result.duration,
      requestsPerSecond: Math.round(result.requests.average),
      connectionErrors: result.errors,
      timeouts: result.timeouts,
      byStatus,
      rssSamples: rssSamples.map((mib) => Math.round(mib)),
      rssWarmMiB: Math.round(median(warm)),
      rssEndMiB: Math.round(median(end)),
      maxRecords,
      ...storage,
      tokensChecked: tokens.length,
      tokensOpenable: openable,
      errorSamples,
      latencyP99Ms: result.latency.p99,
    };
  } finally {
    clearInterval(sampler);
    await demo.close();
  }
}

/** What every soak, short or long, must show. */
export function assertSoak(report: SoakReport, amount: number): void {
  const summary = JSON.stringify({ ...report, rssSamples: undefined });
  assert.equal(report.connectionErrors, 0, summary);
  assert.equal(report.timeouts, 0, summary);
  assert.ok(report.requests >= amount, summary);
  const serverErrors = Object.entries(report.byStatus).filter(([status]) => Number(status) >= 500);
  assert.deepEqual(serverErrors, [], summary);
  // Flat: once warm, the resident size may wobble with the garbage collector but not climb with traffic.
  assert.ok(report.rssEndMiB <= report.rssWarmMiB * 1.25 + 16, `RSS grew from ${report.rssWarmMiB} to ${report.rssEndMiB} MiB: ${summary}`);
  // The store states its own bound (segments deleted whole, only when one is sealed): taken from it, so
  // that a change of segment size cannot leave this test asserting an older rule.
  assert.ok(report.indexLines <= indexLinesBound(report.maxRecords), summary);
  // The server's ring holds maxRecords records and one write batch whose index lines may still be due.
  assert.equal(report.ringFolders, 1, summary);
  assert.ok(report.recordFiles <= report.maxRecords + MAX_BATCH, summary);
  assert.equal(report.otherEntries, 0, summary);
  assert.equal(report.tokensChecked, Math.min(1000, report.tokensChecked), summary);
  assert.ok(report.tokensChecked > 0, summary);
  assert.equal(report.tokensOpenable, report.tokensChecked, summary);
}

function inspectStorage(dir: string): { indexLines: number; ringFolders: number; recordFiles: number; otherEntries: number } {
  // The index is index.csv plus sealed index-<time>-<pid>-<random>.csv segments; records are in rings/<ring>/<slot>.
  let indexLines = 0;
  let otherEntries = 0;
  for (const name of readdirSync(dir)) {
    if (/^index.*\.csv$/.test(name)) indexLines += readFileSync(join(dir, name), 'utf8').split('\n').filter((line) => line !== '').length;
    else if (name !== 'rings') otherEntries++;
  }
  const rings = readdirSync(join(dir, 'rings'));
  let recordFiles = 0;
  for (const ring of rings) {
    for (const name of readdirSync(join(dir, 'rings', ring))) {
      if (/^\d+$/.test(name) && statSync(join(dir, 'rings', ring, name)).isFile()) recordFiles++;
      else otherEntries++;
    }
  }
  return { indexLines, ringFolders: rings.length, recordFiles, otherEntries };
}

/** Waits (bounded, 30 s) until the index stops changing for a second. */
async function waitForQuiet(projectDir: string): Promise<void> {
  const index = join(projectDir, 'var', 'profiler', 'index.csv');
  let last = -1;
  for (let i = 0; i < 60; i++) {
    await new Promise((resolve) => setTimeout(resolve, 500));
    const mtime = statSync(index, { throwIfNoEntry: false })?.mtimeMs ?? 0;
    if (mtime === last) return;
    last = mtime;
  }
}

function median(values: number[]): number {
  if (values.length === 0) return 0;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)]!;
}
