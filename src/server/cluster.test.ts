import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { syncBuiltinESMExports } from 'node:module';
import os, { availableParallelism } from 'node:os';
import { describe, it, mock } from 'node:test';
import { resolveWorkerCount } from './cluster.js';

const FIXTURE = new URL('./cluster-stop.fixture.ts', import.meta.url).pathname;
const STRAY_FIXTURE = new URL('./stray-failure.fixture.ts', import.meta.url).pathname;

/** Runs a fixture to its end: its exit code and what it wrote. */
function runFixture(file: string, env: Record<string, string>): Promise<{ code: number | null; out: string }> {
  const child = spawn(process.execPath, ['--import', 'tsx', file], { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'ignore'] });
  let out = '';
  child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
  return new Promise((resolve) => child.once('close', (code) => resolve({ code, out })));
}

/** Runs the fixture's cluster, sends SIGTERM to its primary once both workers started, and gives its exit code. */
async function stopCluster(stopFails: boolean): Promise<number | null> {
  const child = spawn(process.execPath, ['--import', 'tsx', FIXTURE], { env: { ...process.env, STOP_FAILS: stopFails ? '1' : '0' }, stdio: ['ignore', 'pipe', 'inherit'] });
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  let out = '';
  child.stdout.on('data', (chunk: Buffer) => {
    out += chunk.toString();
    if (out.split('worker started').length === 3) child.kill('SIGTERM');
  });
  return exited;
}

/** Runs the fixture's cluster in a process group of its own and sends the group SIGINT, as Ctrl-C does, once a first worker started. */
async function interruptCluster(): Promise<number | null> {
  const child = spawn(process.execPath, ['--import', 'tsx', FIXTURE], { env: { ...process.env, STOP_FAILS: '0' }, stdio: ['ignore', 'pipe', 'inherit'], detached: true });
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  child.stdout.once('data', () => process.kill(-child.pid!, 'SIGINT'));
  return exited;
}

describe('resolveWorkerCount', () => {
  it('runs one worker per core in prod and a single process elsewhere by default', () => {
    assert.equal(resolveWorkerCount({}, 'prod'), availableParallelism());
    assert.equal(resolveWorkerCount({}, 'dev'), 1);
    assert.equal(resolveWorkerCount({}, 'test'), 1);
  });

  it('keeps prod to one process by default while the rate limits are counted in memory, which workers cannot share', () => {
    // Four cores, whatever this machine has.
    const cores = mock.method(os, 'availableParallelism', () => 4);
    syncBuiltinESMExports();
    try {
      const redis = { url: 'redis://127.0.0.1:6379', timeout: 200 };
      assert.equal(resolveWorkerCount({}, { env: 'prod' }), 1);
      assert.equal(resolveWorkerCount({}, { env: 'prod', rateLimiterStorage: { url: 'memory', timeout: 200 } }), 1);
      assert.equal(resolveWorkerCount({}, { env: 'prod', rateLimiterStorage: redis }), 4);
      assert.equal(resolveWorkerCount({}, { env: 'dev', rateLimiterStorage: redis }), 1);
      // A count asked for is taken as it is (and refused at start-up with the memory storage, saying why).
      assert.equal(resolveWorkerCount({ KEEL_WORKERS: '3' }, { env: 'prod' }), 3);
    } finally {
      cores.mock.restore();
      syncBuiltinESMExports();
    }
  });

  it('takes KEEL_WORKERS first, then WEB_CONCURRENCY, and "auto" as one per core', () => {
    assert.equal(resolveWorkerCount({ KEEL_WORKERS: '3', WEB_CONCURRENCY: '5' }, 'prod'), 3);
    assert.equal(resolveWorkerCount({ WEB_CONCURRENCY: '5' }, 'dev'), 5);
    assert.equal(resolveWorkerCount({ KEEL_WORKERS: 'auto' }, 'dev'), availableParallelism());
    assert.equal(resolveWorkerCount({ KEEL_WORKERS: ' ', WEB_CONCURRENCY: '2' }, 'prod'), 2);
  });

  it('reads the count a .env file of the configuration gives, the environment given winning over it', () => {
    const dotenvVars = { KEEL_WORKERS: '3', WEB_CONCURRENCY: '5' };
    assert.equal(resolveWorkerCount({}, { env: 'prod', dotenvVars }), 3);
    assert.equal(resolveWorkerCount({}, { env: 'dev', dotenvVars: { WEB_CONCURRENCY: '5' } }), 5);
    assert.equal(resolveWorkerCount({ KEEL_WORKERS: '2' }, { env: 'prod', dotenvVars }), 2);
    assert.throws(() => resolveWorkerCount({}, { env: 'prod', dotenvVars: { KEEL_WORKERS: 'many' } }), /KEEL_WORKERS="many" is invalid: expected a positive integer or "auto"/);
  });

  it('refuses a count that is not a positive integer as any other setting, naming the variable, its code KEEL_ERR_CONFIG_INVALID', () => {
    assert.throws(() => resolveWorkerCount({ KEEL_WORKERS: '0' }, 'prod'), { code: 'KEEL_ERR_CONFIG_INVALID', message: 'KEEL_WORKERS="0" is invalid: expected a positive integer or "auto".' });
    assert.throws(() => resolveWorkerCount({ WEB_CONCURRENCY: 'two' }, 'prod'), { code: 'KEEL_ERR_CONFIG_INVALID', message: 'WEB_CONCURRENCY="two" is invalid: expected a positive integer or "auto".' });
    // Its control characters escaped, as every refused value's: a line break cut the message short.
    assert.throws(() => resolveWorkerCount({ KEEL_WORKERS: '4\n2' }, 'prod'), { message: 'KEEL_WORKERS="4\\u000a2" is invalid: expected a positive integer or "auto".' });
  });
});

describe('runServer with several workers', () => {
  it('exits 0 on SIGTERM once every worker has stopped, and 1 when a worker\'s stop failed', { timeout: 60_000 }, async () => {
    assert.equal(await stopCluster(false), 0);
    assert.equal(await stopCluster(true), 1);
  });

  it('gives up, exit code 1, on workers that keep dying soon after they listen, instead of restarting them for ever', { timeout: 120_000 }, async () => {
    const child = spawn(process.execPath, ['--import', 'tsx', FIXTURE], { env: { ...process.env, CRASH_AFTER_LISTEN: '1' }, stdio: 'ignore' });
    assert.equal(await new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code))), 1);
  });

  it('stops a worker still serving gracefully when it gives up on the others, instead of cutting its requests', { timeout: 120_000 }, async () => {
    const { code, out } = await runFixture(FIXTURE, { CRASH_OTHERS: '1' });
    assert.equal(code, 1);
    assert.match(out, /healthy worker stopped/);
  });
});

describe('runServer in one process', () => {
  it('logs what the application rejects or throws outside any request, then stops as on a signal, the work under way finished, and exits 1', { timeout: 60_000 }, async () => {
    for (const [env, what] of [[{}, 'unhandled promise rejection outside any request, stopping: rejected in the background'], [{ THROW: '1' }, 'uncaught exception outside any request, stopping: thrown in the background']] as const) {
      const { code, out } = await runFixture(STRAY_FIXTURE, env);
      assert.equal(code, 1);
      assert.deepEqual(out.trim().split('\n'), [`logged: ${what}`, 'stopped after the work under way']);
    }
  });

  it('exits 0 on Ctrl-C, though a worker still starting dies of the SIGINT the terminal sends the whole group', { timeout: 60_000 }, async () => {
    assert.equal(await interruptCluster(), 0);
  });
});
