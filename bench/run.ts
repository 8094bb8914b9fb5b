/**
 * The benchmark suite: `npm run bench` (full, writes docs/benchmarks.md and docs/benchmarks.svg) or
 * `npm run bench:quick` (under a minute, prints only). Options:
 *   --quick                 small counts, one or two repetitions, docs untouched unless --write
 *   --only=http,router,memory,profile   run some parts (profile is never part of the default set)
 *   --profile               also profile keel's server (V8's CPU profiler, after a warm-up) under the seed request, dev and prod
 *   --reps=N  --cpu-seconds-per-run=S  --memory-requests=N  --memory-sample-every=N  --profile-requests=N
 *   --write / --no-write    write the docs (default: full mode only)
 *   --reference=URL         also measure the reference application (Symfony on php-fpm, dev) at this loopback URL
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { pinProcesses } from './lib/pinning.js';
import { clockTicksPerSecond } from './lib/proc-stat.js';
import { renderCpuChart } from './report/chart-svg.js';
import { describeMachine } from './report/machine.js';
import { renderProfiles, renderResults } from './report/markdown.js';
import { summarize } from './report/summary.js';
import { writeSection } from './report/write-docs.js';
import { HTTP_SCENARIOS } from './scenarios/contenders.js';
import { profileKeel } from './scenarios/cpu-profile.js';
import { FULL_RUN_REQUESTS, runHttpBench, type HttpRun } from './scenarios/http.js';
import { runMemoryBench, type MemoryPoint } from './scenarios/memory.js';
import { measureReference, type ReferenceRun } from './scenarios/reference.js';
import { runRouterBench, type RouterRun } from './scenarios/router.js';

const ROOT = fileURLToPath(new URL('../', import.meta.url));
const { values } = parseArgs({
  options: {
    quick: { type: 'boolean', default: false },
    only: { type: 'string' },
    profile: { type: 'boolean', default: false },
    reps: { type: 'string' },
    'cpu-seconds-per-run': { type: 'string' },
    'memory-requests': { type: 'string' },
    'memory-sample-every': { type: 'string' },
    'profile-requests': { type: 'string' },
    write: { type: 'boolean' },
    'no-write': { type: 'boolean', default: false },
    reference: { type: 'string' },
  },
});

const quick = values.quick;
const number = (value: string | undefined, fallback: number): number => (value === undefined ? fallback : Number(value));
const settings = {
  reps: number(values.reps, quick ? 2 : 5),
  cpuSecondsPerRun: number(values['cpu-seconds-per-run'], quick ? 0.2 : 0.8),
  warmupRequests: quick ? 300 : FULL_RUN_REQUESTS.warmupRequests,
  minRequests: quick ? 300 : FULL_RUN_REQUESTS.minRequests,
  routerReps: number(values.reps, quick ? 1 : 3),
  msPerSet: quick ? 100 : 300,
  routerWarmupMs: quick ? 200 : 1000,
  memoryRequests: number(values['memory-requests'], quick ? 2000 : 200_000),
  memorySampleEvery: number(values['memory-sample-every'], quick ? 500 : 10_000),
  memoryRssCeiling: 1024 * 1_048_576,
  profileRequests: number(values['profile-requests'], quick ? 2000 : 10_000),
};
const parts = new Set((values.only ?? 'http,router,memory').split(',').map((part) => part.trim()));
if (values.profile) parts.add('profile');
const write = values['no-write'] ? false : (values.write ?? !quick);

const started = performance.now();
const log = (line: string): void => {
  process.stdout.write(`${((performance.now() - started) / 1000).toFixed(1).padStart(6)}s ${line}\n`);
};
const pinning = pinProcesses();
log(`keel bench (${quick ? 'quick' : 'full'}): ${pinning.note}`);

let httpRuns: HttpRun[] = [];
let routerRuns: RouterRun[] = [];
let memory: MemoryPoint[] = [];
if (parts.has('http')) {
  log('HTTP scenarios');
  httpRuns = await runHttpBench({ ...settings, repetitions: settings.reps, serverPrefix: pinning.serverPrefix, serverCore: pinning.serverCore, log });
}
let reference: ReferenceRun | undefined;
if (parts.has('http') && values.reference !== undefined) {
  reference = await measureReference({ url: values.reference, requests: quick ? 200 : 800, log });
}
if (parts.has('router')) {
  log('router micro-benchmark');
  routerRuns = await runRouterBench({ repetitions: settings.routerReps, msPerSet: settings.msPerSet, warmupMs: settings.routerWarmupMs, serverPrefix: pinning.serverPrefix, log });
}
if (parts.has('memory')) {
  log('memory under dev-mode seed requests');
  memory = await runMemoryBench({ totalRequests: settings.memoryRequests, rssCeiling: settings.memoryRssCeiling, sampleEvery: settings.memorySampleEvery, serverPrefix: pinning.serverPrefix, log });
}
const summary = summarize(httpRuns, routerRuns, memory, reference);
const machine = describeMachine();
const durationSeconds = (performance.now() - started) / 1000;
const runSettings = [
  parts.has('http') ? `${settings.reps} interleaved repetitions per server and scenario, each of ~${settings.cpuSecondsPerRun} s of server CPU` : '',
  parts.has('router') ? `router ${settings.routerReps} × ${settings.msPerSet} ms per lookup set after ${settings.routerWarmupMs} ms of warm-up` : '',
  parts.has('memory') ? `memory ${settings.memoryRequests.toLocaleString('en')} requests` : '',
]
  .filter((part) => part !== '')
  .join('; ');
const results = renderResults(summary, machine, {
  date: new Date().toISOString().slice(0, 10),
  mode: quick ? 'quick' : 'full',
  pinning: pinning.note,
  clockTicks: clockTicksPerSecond(),
  settings: runSettings,
  durationSeconds,
});
process.stdout.write(`\n${results}\n`);

mkdirSync(`${ROOT}var/bench`, { recursive: true });
writeFileSync(`${ROOT}var/bench/last-run.json`, JSON.stringify({ settings, machine, pinning, httpRuns, reference, routerRuns, memory, summary }, null, 2));
if (write) {
  if (parts.has('http') && parts.has('router') && parts.has('memory')) {
    writeSection(`${ROOT}docs/benchmarks.md`, 'results', results);
    const panels = HTTP_SCENARIOS.map((scenario) => ({ title: scenario.label, rows: summary.http[scenario.id] ?? [] }));
    writeFileSync(`${ROOT}docs/benchmarks.svg`, renderCpuChart(panels));
    log('wrote docs/benchmarks.md and docs/benchmarks.svg');
  } else log('docs/benchmarks.md results not written: they need the http, router and memory parts together');
}

// Last, so that a profile that fails costs none of the results above.
const profiles = [];
if (parts.has('profile')) {
  for (const appEnv of ['prod', 'dev'] as const) {
    log(`CPU profile of keel ${appEnv} under ${settings.profileRequests} seed requests`);
    try {
      const functions = await profileKeel({ appEnv, requests: settings.profileRequests, serverPrefix: pinning.serverPrefix });
      profiles.push({ title: `keel ${appEnv}, seed 404`, requests: settings.profileRequests, functions });
    } catch (error) {
      log(`  no profile of keel ${appEnv}: ${(error as Error).message}`);
    }
  }
}

const profileText = renderProfiles(profiles, 15);
if (profiles.length > 0) {
  process.stdout.write(`\n${profileText}\n`);
  if (write) {
    writeSection(`${ROOT}docs/benchmarks.md`, 'profile', profileText);
    log('wrote the profile section of docs/benchmarks.md');
  }
}
log(`raw measurements: var/bench/last-run.json (${Math.round(durationSeconds)} s)`);
