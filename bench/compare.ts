/**
 * `npm run bench:compare -- --base=<git ref>`: keel of this checkout against keel of another commit, over
 * HTTP, in interleaved runs, as the figure to decide a performance change by. A change judged in a loop
 * can save there and cost in a server (see docs/benchmarks.md, "Reading these profiles"); this is the
 * server's answer. Options:
 *   --base=REF             the commit to compare with (required); checked out in a temporary worktree
 *   --mode=dev|prod        keel's APP_ENV (default dev: profiler, toolbar, debug page and log file on)
 *   --path=/robots.txt     the request, sent with the reference's seed headers; --status=404 its expected status
 *   --runs=10              interleaved pairs; --cpu-seconds-per-run=0.8 server CPU per run (sizes the runs)
 * Both sides run this checkout's node_modules: a base whose package-lock.json differs is refused.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { pinProcesses } from './lib/pinning.js';
import { startServer, type ServerProcess } from './lib/server-process.js';
import { median, pairedRatio, relativeSpread } from './lib/stats.js';
import { FULL_RUN_REQUESTS, measure, warmUp } from './scenarios/http.js';

const ROOT = fileURLToPath(new URL('../', import.meta.url));
const { values } = parseArgs({
  options: {
    base: { type: 'string' },
    mode: { type: 'string', default: 'dev' },
    path: { type: 'string', default: '/robots.txt' },
    status: { type: 'string', default: '404' },
    runs: { type: 'string', default: '10' },
    'cpu-seconds-per-run': { type: 'string', default: '0.8' },
  },
});

if (values.base === undefined) fail('--base=<git ref> is required: the commit to compare this checkout with');
if (values.mode !== 'dev' && values.mode !== 'prod') fail(`--mode is dev or prod, not "${values.mode}"`);
const runs = positiveInteger(values.runs, '--runs');
const cpuSecondsPerRun = Number(values['cpu-seconds-per-run']);
if (!(cpuSecondsPerRun > 0)) fail('--cpu-seconds-per-run must be a positive number');
const scenario = { path: values.path, expectStatus: positiveInteger(values.status, '--status') };

const git = (...args: string[]): string => execFileSync('git', args, { cwd: ROOT, encoding: 'utf8' }).trim();
const base = resolveCommit(values.base);
// Both sides import this checkout's node_modules; with other dependencies the base would not be itself.
if (git('diff', '--name-only', base, '--', 'package-lock.json') !== '') {
  fail(`package-lock.json differs between ${values.base} and this checkout: the base would run with other dependencies than its own`);
}

const pinning = pinProcesses();
const worktree = join(mkdtempSync(join(tmpdir(), 'keel-compare-')), 'base');
git('worktree', 'add', '--detach', '--quiet', worktree, base);
const servers: ServerProcess[] = [];
try {
  symlinkSync(join(ROOT, 'node_modules'), join(worktree, 'node_modules'), 'dir');
  if (!existsSync(join(worktree, 'bench', 'servers', 'keel.ts'))) throw new Error(`${values.base} has no bench/servers/keel.ts to start`);
  const env = { APP_ENV: values.mode };
  const before = await startServer({ file: 'keel', env, checkout: worktree }, pinning.serverPrefix);
  servers.push(before);
  const after = await startServer({ file: 'keel', env }, pinning.serverPrefix);
  servers.push(after);
  const options = { ...FULL_RUN_REQUESTS, cpuSecondsPerRun, serverCore: pinning.serverCore };
  // The same number of requests for both sides: sized from the base, so a pair compares equal work.
  const { amount } = await warmUp(before, scenario, options);
  await warmUp(after, scenario, options);
  const baseCpu: number[] = [];
  const currentCpu: number[] = [];
  for (let run = 0; run < runs; run++) {
    // Alternate which goes first, so that neither always runs on a machine the other just heated.
    const order = run % 2 === 0 ? [before, after] : [after, before];
    for (const server of order) {
      const { cpuMicrosPerRequest } = await measure(server, scenario, amount, pinning.serverCore);
      (server === before ? baseCpu : currentCpu).push(cpuMicrosPerRequest);
    }
    const [was, now] = [baseCpu.at(-1) as number, currentCpu.at(-1) as number];
    process.stdout.write(`run ${run + 1}/${runs}: base ${was.toFixed(1)} µs, this checkout ${now.toFixed(1)} µs, ratio ${(now / was).toFixed(3)}\n`);
  }
  const lower = currentCpu.filter((value, i) => value < (baseCpu[i] as number)).length;
  process.stdout.write(
    [
      '',
      `keel ${values.mode}, GET ${scenario.path} (${scenario.expectStatus}) with the seed headers, ${runs} interleaved pairs × ${amount} requests, ${pinning.note}`,
      `base ${values.base} (${base.slice(0, 12)}): median ${median(baseCpu).toFixed(1)} µs CPU/request (spread ${(relativeSpread(baseCpu) * 100).toFixed(0)} %)`,
      `this checkout: median ${median(currentCpu).toFixed(1)} µs CPU/request (spread ${(relativeSpread(currentCpu) * 100).toFixed(0)} %)`,
      `paired ratio this/base: ${pairedRatio(currentCpu, baseCpu).toFixed(3)}, lower in ${lower} of ${runs} pairs`,
      '',
    ].join('\n'),
  );
} finally {
  await Promise.all(servers.map((server) => server.stop()));
  git('worktree', 'remove', '--force', worktree);
  rmSync(join(worktree, '..'), { recursive: true, force: true });
}

function resolveCommit(ref: string): string {
  try {
    return git('rev-parse', '--verify', '--quiet', `${ref}^{commit}`);
  } catch {
    return fail(`"${ref}" names no commit of this repository`);
  }
}

function positiveInteger(value: string, option: string): number {
  const number = Number(value);
  if (!Number.isInteger(number) || number < 1) fail(`${option} must be a positive integer, not "${value}"`);
  return number;
}

function fail(message: string): never {
  process.stderr.write(`bench:compare: ${message}\n`);
  process.exit(2);
}
