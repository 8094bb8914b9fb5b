import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { after, before, describe, it } from 'node:test';
import { rawRequest } from '../helpers/raw-http.js';
import { startRedis, type RunningRedis } from '../helpers/redis.js';
import { seedHeaders } from '../helpers/seed-request.js';
import { spawnDemo, type DemoProcess } from './demo-process.js';

interface LogLine {
  level: string;
  msg: string;
  pid: number;
  url?: string;
  [key: string]: unknown;
}

function logLines(demo: DemoProcess): LogLine[] {
  return demo
    .stdout()
    .split('\n')
    .filter((line) => line !== '')
    .map((line) => JSON.parse(line) as LogLine);
}

/**
 * Looks every 50 ms until `check` holds, for as long as the primary runs (`afterExit`: whatever it does),
 * rather than for a number of looks: a worker can take seconds to start on a loaded machine. A check that
 * never holds fails at the primary's exit, or at the test's timeout (WAIT_MS) with what it printed.
 */
async function eventually(check: () => boolean, what: string, demo: DemoProcess, afterExit = false): Promise<void> {
  for (;;) {
    const exited = demo.child.exitCode !== null || demo.child.signalCode !== null;
    if (check()) return;
    if (exited && !afterExit) throw new Error(`${what} did not happen before the process exited:\n${demo.stdout()}\n${demo.stderr()}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

const WAIT_MS = 120_000;

const listeningPids = (demo: DemoProcess): number[] => logLines(demo).filter((line) => line.msg === 'server listening').map((line) => line.pid);
const isRunning = (pid: number): boolean => existsSync(`/proc/${pid}`);

describe('npm run start:prod: a cluster of workers, profiler off, JSON lines on stdout', () => {
  let demo: DemoProcess;
  let redis: RunningRedis;
  before(async () => {
    // Workers share the rate limits through Redis: in memory, each would count alone (and keel refuses to).
    redis = await startRedis();
    demo = await spawnDemo({ env: { APP_ENV: 'prod', KEEL_WORKERS: '2', RATE_LIMIT_STORAGE: redis.url } });
    await eventually(() => listeningPids(demo).length === 2, 'two workers listening', demo);
  }, { timeout: WAIT_MS });
  after(async () => {
    await demo?.close();
    await redis?.close();
  });

  it('answers the seed request with the prod 404 page and no debug header', async () => {
    const response = await rawRequest(demo.port, { path: '/robots.txt', headers: seedHeaders() });
    assert.equal(response.status, 404);
    assert.deepEqual(
      response.headerNames().filter((name) => /^x-debug|^x-robots|^set-cookie/i.test(name)),
      [],
    );
    assert.match(response.body, /<title>An Error Occurred: Not Found<\/title>/);
    assert.match(response.body, /The server returned a &quot;404 Not Found&quot;\./);
    assert.doesNotMatch(response.body, /robots\.txt|router-listener/);
  });

  it('logs a 500 as one JSON line on stdout, and nothing but JSON lines', { timeout: WAIT_MS }, async () => {
    const response = await rawRequest(demo.port, { path: '/boom', headers: seedHeaders() });
    assert.equal(response.status, 500);
    assert.equal(response.header('x-debug-token'), undefined);
    await eventually(() => logLines(demo).some((line) => line.level === 'critical'), 'the critical line', demo);
    const critical = logLines(demo).find((line) => line.level === 'critical');
    assert.match(critical?.msg ?? '', /^Uncaught PHP Exception RuntimeException: "Boom <b>"quoted" & 'single'<\/b>" at /);
    // Like the reference's prod handler, the seed's 404 is not an incident: no line for it.
    assert.ok(!logLines(demo).some((line) => /No route found/.test(line.msg)));
  });

  it('starts another worker when one dies, and keeps answering meanwhile', { timeout: WAIT_MS }, async () => {
    const [victim] = listeningPids(demo);
    assert.ok(victim !== undefined);
    process.kill(victim, 'SIGKILL');
    // Once the primary knows (a connection handed to the worker in the instant before is lost with it),
    // the survivor answers while the replacement starts.
    await eventually(() => logLines(demo).some((line) => line.msg === 'worker died, starting another'), 'the restart line', demo);
    const survivor = await rawRequest(demo.port, { path: '/about', headers: seedHeaders() });
    assert.equal(survivor.status, 200);
    await eventually(() => listeningPids(demo).length === 3, 'a replacement worker', demo);
    const replacement = listeningPids(demo)[2]!;
    assert.ok(isRunning(replacement));
    assert.ok(logLines(demo).some((line) => line.msg === 'worker died, starting another' && line.signal === 'SIGKILL' && line.worker === victim));
  });

  it('stops every worker and exits 0 on SIGTERM', { timeout: WAIT_MS }, async () => {
    const workers = listeningPids(demo).filter(isRunning);
    assert.equal(workers.length, 2);
    demo.child.kill('SIGTERM');
    const { code } = await demo.exited;
    assert.equal(code, 0);
    await eventually(() => workers.every((pid) => !isRunning(pid)), 'every worker gone', demo, true);
  });
});

describe('npm run start:prod without Redis and without a worker count', () => {
  it('serves from one process, says why, and answers, where each worker would refuse in-memory rate limits', { timeout: WAIT_MS }, async () => {
    const demo = await spawnDemo({ env: { APP_ENV: 'prod' } });
    try {
      await eventually(() => listeningPids(demo).length === 1, 'one process listening', demo);
      const [pid] = listeningPids(demo);
      // The process itself serves: no cluster primary in front of it.
      assert.equal(pid, demo.child.pid);
      assert.equal((await rawRequest(demo.port, { path: '/robots.txt', headers: seedHeaders() })).status, 404);
      const note = () => logLines(demo).some((line) => line.msg.startsWith('one worker: rate limits are counted in memory'));
      // On a single core the default is one process anyway, and there is nothing to explain.
      if (availableParallelism() > 1) await eventually(note, 'the line saying why one process serves', demo);
      else assert.equal(note(), false);
    } finally {
      await demo.close();
    }
  });
});
