/**
 * What the profiler costs: the reference's seed request (`GET /robots.txt` through an HTTPS proxy, a 404
 * rendered by the error sub-request) against the demo app in dev mode, profiler off, then its parts added
 * one at a time: collection (records kept in memory, no toolbar), the toolbar, and the file storage, which
 * makes the profiler as `npm start` runs it. The figure is the server's CPU time per request, read from
 * /proc/<pid>/stat (utime + stime, every thread: collection, the record's serialisation, compression and
 * file writes at terminate included), divided by the requests served. The variants run interleaved, each
 * round in another order, so that drift of the machine hits all alike; each is given as the median of its
 * per-round ratios to the profiler off. Fails (exit 1) when the whole profiler adds 25 % or more to the
 * request's cost.
 *
 *   npm run bench:profiler                      # 7 rounds of 3000 requests per variant
 *   ROUNDS=3 REQUESTS=1000 npm run bench:profiler
 *   KEEL_PROFILER_STORAGE=redis://127.0.0.1:6379 npm run bench:profiler   # another storage for the last step
 *
 * The server is the benchmark's keel server (bench/servers/keel.ts) in dev mode, each variant's settings
 * given to it in KEEL_BENCH_CONFIG.
 */
import { pinProcesses } from './lib/pinning.js';
import { startServer, type ServerProcess } from './lib/server-process.js';
import { median, pairedRatio, relativeSpread } from './lib/stats.js';
import { measure as measureRun } from './scenarios/http.js';

const LIMIT = 0.25;
const STORAGE = process.env.KEEL_PROFILER_STORAGE ?? 'file';
const SEED = { path: '/robots.txt', expectStatus: 404 };

interface Variant {
  id: string;
  label: string;
  env: Record<string, string>;
}

// Each adds one part to the one before; the last is the profiler as dev runs it. The memory storage of the
// steps before keeps one family (two records) only: kept by the hundred, records reach V8's old generation,
// whose collection would then be counted as collection's cost.
const IN_MEMORY = { KEEL_PROFILER_STORAGE: 'memory', KEEL_PROFILER_MAX_RECORDS: '2' };
const VARIANTS: readonly Variant[] = [
  { id: 'off', label: 'profiler off (debug page and log file on)', env: { KEEL_PROFILER: '0' } },
  { id: 'collect', label: '+ collection (the records of the last request kept in memory)', env: { KEEL_PROFILER: '1', KEEL_TOOLBAR: '0', ...IN_MEMORY } },
  { id: 'toolbar', label: '+ toolbar', env: { KEEL_PROFILER: '1', KEEL_TOOLBAR: '1', ...IN_MEMORY } },
  { id: 'on', label: `+ ${STORAGE.startsWith('redis') ? 'Redis' : STORAGE} storage: the profiler on`, env: { KEEL_PROFILER: '1', KEEL_TOOLBAR: '1', KEEL_PROFILER_STORAGE: STORAGE } },
];

interface Server {
  variant: Variant;
  process: ServerProcess;
}

await measure();

async function startVariant(variant: Variant, prefix: string[]): Promise<Server> {
  const server = await startServer({ file: 'keel', env: { APP_ENV: 'dev', KEEL_BENCH_CONFIG: JSON.stringify(variant.env) } }, prefix);
  // What the app really runs, so that a variant whose settings were not taken is caught.
  const expected = `READY profiler=${variant.env.KEEL_PROFILER === '1' ? 'on' : 'off'} toolbar=${variant.env.KEEL_TOOLBAR === '1' ? 'on' : 'off'}`;
  if (server.ready !== expected) {
    await server.stop();
    throw new Error(`the ${variant.id} server started with other settings: ${server.ready}`);
  }
  return { variant, process: server };
}

/** CPU µs per request of one run of `amount` seed requests. */
async function cpuPerRequest(server: Server, amount: number, core: number | undefined): Promise<number> {
  return (await measureRun(server.process, SEED, amount, core)).cpuMicrosPerRequest;
}

async function measure(): Promise<void> {
  const rounds = Number(process.env.ROUNDS ?? process.env.PAIRS ?? 7);
  const requests = Number(process.env.REQUESTS ?? 3000);
  const pinning = pinProcesses();
  const servers: Server[] = [];
  try {
    for (const variant of VARIANTS) servers.push(await startVariant(variant, pinning.serverPrefix));
    // Warm-up: JIT, the profiler's ring buffer and record files up to their steady state.
    for (const server of servers) await cpuPerRequest(server, Math.min(requests, 1000), pinning.serverCore);
    const cpu = new Map<Server, number[]>(servers.map((server) => [server, []]));
    for (let round = 0; round < rounds; round++) {
      // Each round starts one variant later, so that none always runs on a machine another just heated.
      const order = servers.map((_, i) => servers[(i + round) % servers.length]!);
      for (const server of order) cpu.get(server)!.push(await cpuPerRequest(server, requests, pinning.serverCore));
      process.stdout.write(`round ${round + 1}/${rounds}: ${servers.map((server) => `${server.variant.id} ${cpu.get(server)!.at(-1)!.toFixed(0)} µs`).join(', ')}\n`);
    }
    const off = cpu.get(servers[0]!)!;
    const rows = servers.map((server) => ({ server, values: cpu.get(server)!, ratio: pairedRatio(cpu.get(server)!, off) }));
    const overhead = rows.at(-1)!.ratio - 1;
    process.stdout.write(
      [
        '',
        `seed request GET /robots.txt (404 via the error sub-request), ${rounds} rounds × ${requests} requests per variant, ${pinning.note}`,
        '',
        '| variant | CPU µs/request (median) | spread | × off (paired) | this step |',
        '| --- | ---: | ---: | ---: | ---: |',
        ...rows.map(({ server, values, ratio }, i) => {
          const step = i === 0 ? '' : `${formatPercent(ratio - rows[i - 1]!.ratio)} of off`;
          return `| ${server.variant.label} | ${median(values).toFixed(0)} | ${(relativeSpread(values) * 100).toFixed(0)} % | ${ratio.toFixed(2)} | ${step} |`;
        }),
        '',
        `profiler overhead: ${formatPercent(overhead)} of the request's cost (limit ${LIMIT * 100} %): ${overhead < LIMIT ? 'PASS' : 'FAIL'}`,
        '',
      ].join('\n'),
    );
    process.exitCode = overhead < LIMIT ? 0 : 1;
  } finally {
    await Promise.all(servers.map((server) => server.process.stop()));
  }
}

function formatPercent(share: number): string {
  return `${share >= 0 ? '+' : '−'}${Math.abs(share * 100).toFixed(0)} %`;
}
