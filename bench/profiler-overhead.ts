/**
 * What the profiler costs: the reference's seed request (`GET /robots.txt` through an HTTPS proxy, a 404
 * rendered by the error sub-request) against the demo app in dev mode, profiler on vs off. The figure is
 * the server's CPU time per request, read from /proc/<pid>/stat (utime + stime, every thread: collection,
 * the record's serialisation, gzip and file writes at terminate included), divided by the requests served.
 * Runs alternate on/off so that drift of the machine hits both alike; the result is the median of the
 * per-pair ratios. Fails (exit 1) when the profiler adds 25 % or more to the request's cost.
 *
 *   npm run bench:profiler                      # 7 pairs of 3000 requests
 *   PAIRS=3 REQUESTS=1000 npm run bench:profiler
 *   KEEL_PROFILER_STORAGE=memory npm run bench:profiler   # collection alone, no persistence
 *
 * `node --import tsx bench/profiler-overhead.ts serve on|off` is the server child it starts.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { drive } from './lib/load.js';
import { pinProcesses } from './lib/pinning.js';
import { clockTicksPerSecond, readCpuTicks } from './lib/proc-stat.js';
import { seedHeaderObject } from './lib/seed.js';
import { freePort } from './lib/server-process.js';
import { median, pairedRatio, relativeSpread } from './lib/stats.js';

const LIMIT = 0.25;

if (process.argv[2] === 'serve') await serve(process.argv[3] === 'on');
else await measure();

async function serve(profiler: boolean): Promise<void> {
  const { createApp } = await import('../src/app.js');
  const { loadConfig } = await import('../src/config/load-config.js');
  const { createLogger } = await import('../src/logging/create-logger.js');
  const { demoRoutes } = await import('../demo/routes.js');
  const projectDir = mkdtempSync(join(tmpdir(), 'keel-bench-profiler-'));
  writeFileSync(join(projectDir, '.env'), 'TRUSTED_PROXIES=loopback\nTRUSTED_HEADERS=x-forwarded-for,x-forwarded-host,x-forwarded-proto,x-forwarded-port\n');
  // Profiler on: the default file storage under var/profiler, toolbar on, as `npm start` runs in dev.
  const storage = process.env.KEEL_PROFILER_STORAGE ?? 'file';
  const config = loadConfig({ cwd: projectDir, env: { APP_ENV: 'dev', KEEL_PROFILER: profiler ? '1' : '0', KEEL_PROFILER_STORAGE: storage } });
  const logger = createLogger({ env: config.env, debug: config.debug, level: config.log.level, file: config.log.file, stderr: false });
  const app = createApp({ config, routes: demoRoutes, logger });
  const port = Number(process.env.PORT);
  await app.listen({ port, host: '127.0.0.1' });
  process.stdout.write(`READY profiler=${app.profiler === undefined ? 'off' : 'on'}\n`);
  process.once('SIGTERM', () => {
    app.close().finally(() => {
      rmSync(projectDir, { recursive: true, force: true });
      process.exit(0);
    });
  });
}

interface Server {
  child: ChildProcess;
  port: number;
}

async function startServer(profiler: boolean, prefix: string[]): Promise<Server> {
  const port = await freePort();
  const command = [...prefix, process.execPath, '--import', 'tsx', fileURLToPath(import.meta.url), 'serve', profiler ? 'on' : 'off'];
  const child = spawn(command[0]!, command.slice(1), { env: { ...process.env, PORT: String(port) }, stdio: ['ignore', 'pipe', 'inherit'] });
  await new Promise<void>((resolve, reject) => {
    let out = '';
    child.stdout!.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      if (out.includes(`READY profiler=${profiler ? 'on' : 'off'}`)) resolve();
      else if (out.includes('READY')) reject(new Error(`server started with the wrong profiler setting: ${out.trim()}`));
    });
    child.once('exit', (code) => reject(new Error(`server exited with ${code} before READY`)));
  });
  return { child, port };
}

/** CPU µs per request of one run of `amount` seed requests. */
async function cpuPerRequest(server: Server, amount: number): Promise<number> {
  const pid = server.child.pid!;
  const before = readCpuTicks(pid);
  const { served } = await drive({ port: server.port, path: '/robots.txt', headers: seedHeaderObject(), amount, expectStatus: 404 });
  // Profiles are written at terminate, after each response: let the last ones land before reading.
  await new Promise((resolve) => setTimeout(resolve, 200));
  const after = readCpuTicks(pid);
  const ticks = after.utime + after.stime - (before.utime + before.stime);
  return ((ticks / clockTicksPerSecond()) * 1e6) / served;
}

async function measure(): Promise<void> {
  const pairs = Number(process.env.PAIRS ?? 7);
  const requests = Number(process.env.REQUESTS ?? 3000);
  const pinning = pinProcesses();
  const on = await startServer(true, pinning.serverPrefix);
  const off = await startServer(false, pinning.serverPrefix);
  try {
    // Warm-up: JIT, the profiler's ring buffer and record files up to their steady state.
    await cpuPerRequest(on, Math.min(requests, 1000));
    await cpuPerRequest(off, Math.min(requests, 1000));
    const withProfiler: number[] = [];
    const without: number[] = [];
    for (let pair = 0; pair < pairs; pair++) {
      // Alternate which goes first, so neither always runs on a machine the other just heated.
      const order = pair % 2 === 0 ? ([on, off] as const) : ([off, on] as const);
      for (const server of order) (server === on ? withProfiler : without).push(await cpuPerRequest(server, requests));
      process.stdout.write(`pair ${pair + 1}/${pairs}: on ${withProfiler.at(-1)!.toFixed(0)} µs, off ${without.at(-1)!.toFixed(0)} µs\n`);
    }
    const ratio = pairedRatio(withProfiler, without) - 1;
    process.stdout.write(
      [
        '',
        `seed request GET /robots.txt (404 via the error sub-request), profiler storage ${process.env.KEEL_PROFILER_STORAGE ?? 'file'}, ${pairs} pairs × ${requests} requests, ${pinning.note}`,
        `server CPU per request, profiler on:  median ${median(withProfiler).toFixed(0)} µs (spread ${(relativeSpread(withProfiler) * 100).toFixed(0)} %)`,
        `server CPU per request, profiler off: median ${median(without).toFixed(0)} µs (spread ${(relativeSpread(without) * 100).toFixed(0)} %)`,
        `profiler overhead: ${(ratio * 100).toFixed(1)} % of the request's cost (limit ${LIMIT * 100} %): ${ratio < LIMIT ? 'PASS' : 'FAIL'}`,
        '',
      ].join('\n'),
    );
    process.exitCode = ratio < LIMIT ? 0 : 1;
  } finally {
    for (const { child } of [on, off]) {
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      await exited;
    }
  }
}
