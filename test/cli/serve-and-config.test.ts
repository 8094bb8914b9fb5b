import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { after, before, describe, it } from 'node:test';
import { rawRequest } from '../helpers/raw-http.js';
import { DEMO_APP, runKeel, spawnKeel, untilOutput } from './run-keel.js';

describe('keel serve', () => {
  let projectDir: string;
  before(() => {
    projectDir = mkdtempSync(join(tmpdir(), 'keel-cli-serve-'));
  });
  after(() => rmSync(projectDir, { recursive: true, force: true }));

  it('serves the application module until SIGTERM, then exits with code 0', async () => {
    // --port stands for PORT: a PORT the environment got wrong is not read.
    const child = spawnKeel(['serve', '--port', '0', '--env', 'prod', '--app', DEMO_APP], { cwd: projectDir, env: { PORT: 'abc' } });
    let stdout = '';
    let stderr = '';
    child.stdout!.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
    const exited = new Promise<number | null>((resolve) => child.on('close', resolve));
    const url = await new Promise<string>((resolve, reject) => {
      child.stderr!.setEncoding('utf8').on('data', (chunk: string) => {
        stderr += chunk;
        const found = /listening on (http:\/\/\S+)/.exec(stderr);
        if (found) resolve(found[1]!);
      });
      child.on('close', () => reject(new Error(`keel serve exited early: ${stdout}${stderr}`)));
    });
    try {
      // In prod stdout is the logger's JSON lines only: the command's own lines go to stderr.
      assert.match(stderr, /^keel \(prod, debug off\) listening on http:\/\/127\.0\.0\.1:\d+$/m);
      const response = await rawRequest(Number(new URL(url).port), { path: '/api/status' });
      assert.equal(response.status, 200);
      assert.equal(JSON.parse(response.body).status, 'ok');
    } finally {
      child.kill('SIGTERM');
    }
    assert.equal(await exited, 0);
    assert.match(stderr, /^SIGTERM: stopping$/m);
    const lines = stdout.split('\n').filter((line) => line !== '');
    assert.ok(lines.some((line) => (JSON.parse(line) as { msg?: string }).msg === 'server listening'), stdout);
    for (const line of lines) assert.doesNotThrow(() => JSON.parse(line), `not a JSON line: ${line}`);
  });

  it('ignores a second signal, and exits with code 1 when the stop still hangs past its grace period and last resort', { timeout: 60_000 }, async () => {
    const app = fileURLToPath(new URL('fixtures/hanging-app.ts', import.meta.url));
    const child = spawnKeel(['serve', '--port', '0', '--env', 'prod', '--app', app], { cwd: projectDir, env: { SHUTDOWN_GRACE_MS: '100' } });
    let stdout = '';
    let stderr = '';
    child.stderr!.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    const exited = new Promise<[number | null, string | null]>((resolve) => child.on('close', (code, signal) => resolve([code, signal])));
    child.stdout!.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
    const port = await new Promise<number>((resolve, reject) => {
      child.stderr!.on('data', () => {
        const found = /listening on http:\/\/[^:]+:(\d+)/.exec(stderr);
        if (found) resolve(Number(found[1]));
      });
      child.on('close', () => reject(new Error(`keel serve exited early: ${stdout}${stderr}`)));
    });
    // Answered: its terminate listener, which never settles, is under way once the answer is in.
    assert.equal((await rawRequest(port, { path: '/hang' })).status, 200);
    const stopping = untilOutput(child.stderr!, /^SIGTERM: stopping$/m);
    child.kill('SIGTERM');
    // A second signal sent before the first is handled could merge with it: it is sent once the stop began.
    await stopping;
    child.kill('SIGTERM');
    assert.deepEqual(await exited, [1, null], 'exit code 1, not killed by the second signal');
    assert.match(stderr, /^error: still stopping \d+ ms after SIGTERM: exiting$/m);
  });

  it('logs a promise the application leaves rejected outside any request, then stops, finishing the request in flight, and exits 1', { timeout: 60_000 }, async () => {
    const app = fileURLToPath(new URL('fixtures/stray-rejection-app.ts', import.meta.url));
    const child = spawnKeel(['serve', '--port', '0', '--env', 'prod', '--app', app], { cwd: projectDir });
    let stdout = '';
    let stderr = '';
    child.stdout!.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
    child.stderr!.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    const exited = new Promise<[number | null, string | null]>((resolve) => child.on('close', (code, signal) => resolve([code, signal])));
    const port = await new Promise<number>((resolve, reject) => {
      child.stderr!.on('data', () => {
        const found = /listening on http:\/\/[^:]+:(\d+)/.exec(stderr);
        if (found) resolve(Number(found[1]));
      });
      child.on('close', () => reject(new Error(`keel serve exited early: ${stdout}${stderr}`)));
    });
    const slowStarted = untilOutput(child.stderr!, /^slow: started$/m);
    const slow = rawRequest(port, { path: '/slow' });
    // /fire begins the stop: it is sent once /slow is in flight, which answers only after that.
    await slowStarted;
    const fired = await rawRequest(port, { path: '/fire' });
    assert.equal(fired.status, 200);
    assert.match((await slow).body, /slow done/);
    assert.deepEqual(await exited, [1, null]);
    assert.match(stderr, /^unhandledRejection: stopping$/m);
    const logged = stdout.split('\n').filter((line) => line !== '').map((line) => JSON.parse(line) as { msg?: string; exception?: { message?: string } });
    assert.ok(logged.some((line) => line.msg === 'unhandled promise rejection outside any request, stopping' && /background work failed/.test(JSON.stringify(line))), stdout);
  });

  it('exits with code 0 once the stop is over, without waiting for a controller still running past the grace period', { timeout: 60_000 }, async () => {
    const app = fileURLToPath(new URL('fixtures/stuck-controller-app.ts', import.meta.url));
    const child = spawnKeel(['serve', '--port', '0', '--env', 'prod', '--app', app], { cwd: projectDir, env: { SHUTDOWN_GRACE_MS: '300' } });
    let stderr = '';
    child.stderr!.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    child.stdout!.resume();
    const exited = new Promise<[number | null, string | null]>((resolve) => child.on('close', (code, signal) => resolve([code, signal])));
    const port = await new Promise<number>((resolve, reject) => {
      child.stderr!.on('data', () => {
        const found = /listening on http:\/\/[^:]+:(\d+)/.exec(stderr);
        if (found) resolve(Number(found[1]));
      });
      child.on('close', () => reject(new Error(`keel serve exited early: ${stderr}`)));
    });
    const stuckStarted = untilOutput(child.stderr!, /^stuck: started$/m);
    const stuck = rawRequest(port, { path: '/stuck' }).catch(() => undefined);
    await stuckStarted;
    child.kill('SIGTERM');
    // Far past the grace period and the last resort (5 s): a process still there waits on the controller.
    const outcome = await Promise.race([exited, new Promise<string>((resolve) => setTimeout(resolve, 20_000, 'still running'))]);
    if (outcome === 'still running') child.kill('SIGKILL');
    assert.deepEqual(outcome, [0, null]);
    assert.doesNotMatch(stderr, /still stopping/);
    await stuck;
  });

  it('refuses a port that is not a number as a usage error', async () => {
    const run = await runKeel(['serve', '--port', 'http', '--app', DEMO_APP], { cwd: projectDir });
    assert.equal(run.code, 2);
    assert.equal(run.stderr, "error: option '-p, --port <port>' argument 'http' is invalid. a port is a whole number from 0 to 65535.\n");
  });

  it('fails in one line when no application module is configured', async () => {
    const run = await runKeel(['serve'], { cwd: projectDir });
    assert.equal(run.code, 1);
    assert.equal(run.stderr, 'error: no application module: pass --app <module>, set KEEL_APP, or add "keel": { "app": "<module>" } to package.json\n');
  });

  it('takes the module from KEEL_APP, relative to the project directory', async () => {
    writeFileSync(join(projectDir, 'package.json'), '{ "type": "module" }\n');
    writeFileSync(join(projectDir, 'app.ts'), "export const routes = [{ name: 'only', path: '/only', methods: ['GET'] }];\n");
    const run = await runKeel(['debug:router', '--format=json'], { cwd: projectDir, env: { KEEL_APP: 'app.ts' } });
    assert.equal(run.code, 0, run.stderr);
    assert.deepEqual(Object.keys(JSON.parse(run.stdout)).filter((name) => !name.startsWith('_')), ['only']);
  });
});

describe('keel config', () => {
  let projectDir: string;
  before(() => {
    projectDir = mkdtempSync(join(tmpdir(), 'keel-cli-config-'));
    writeFileSync(join(projectDir, '.env'), ['APP_ENV=dev', 'APP_SECRET=s3cr3t-value', 'RATE_LIMIT_SENSITIVE_LIMIT=5', 'TRUSTED_PROXIES=10.0.0.0/8', ''].join('\n'));
    writeFileSync(join(projectDir, '.env.prod'), 'RATE_LIMIT_DEFAULT_POLICY=sliding_window\n');
  });
  after(() => rmSync(projectDir, { recursive: true, force: true }));

  it('prints the effective configuration with the rate limiters and the .env variables, secrets masked', async () => {
    const redis = 'redis://:pw-in-url@127.0.0.1:1';
    const run = await runKeel(['config'], { cwd: projectDir, env: { RATE_LIMIT_SENSITIVE_INTERVAL: '60', RATE_LIMIT_STORAGE: redis, KEEL_PROFILER_STORAGE: redis } });
    assert.equal(run.code, 0, run.stderr);
    // A Redis URL's password, though the setting's name says nothing of a secret.
    assert.doesNotMatch(run.stdout, /pw-in-url/);
    assert.match(run.stdout, /redis:\/\/:\*{6}@127\.0\.0\.1:1/);
    assert.match(run.stdout, /^env\s+dev$/m);
    assert.match(run.stdout, /^trustedProxies\s+10\.0\.0\.0\/8$/m);
    assert.match(run.stdout, /^rateLimiter\.sensitive\.limit\s+5$/m);
    assert.match(run.stdout, /^rateLimiter\.sensitive\.interval\s+60$/m);
    assert.match(run.stdout, /^APP_SECRET\s+\*{6}$/m);
    assert.doesNotMatch(run.stdout, /s3cr3t/);
  });

  it('resolves another environment with --env, as JSON', async () => {
    const run = await runKeel(['config', '--env=prod', '--format=json'], { cwd: projectDir });
    assert.equal(run.code, 0, run.stderr);
    const { config, dotenv } = JSON.parse(run.stdout) as { config: { env: string; debug: boolean; rateLimiter: Record<string, { policy: string }> }; dotenv: Record<string, string> };
    assert.equal(config.env, 'prod');
    assert.equal(config.debug, false);
    assert.equal(config.rateLimiter.default?.policy, 'sliding_window');
    assert.equal(dotenv.APP_SECRET, '******');
  });

  it('lists only what the files define (as debug:dotenv), an empty secret as empty, and none without a file', async () => {
    const bare = mkdtempSync(join(tmpdir(), 'keel-cli-config-bare-'));
    try {
      const none = await runKeel(['config'], { cwd: bare });
      assert.equal(none.code, 0, none.stderr);
      assert.match(none.stdout, /Variables from \.env files\nnone\n$/);
      writeFileSync(join(bare, '.env'), 'APP_SECRET=\nTRUSTED_PROXIES=10.0.0.0/8\n');
      const run = await runKeel(['config', '--format=json'], { cwd: bare });
      assert.equal(run.code, 0, run.stderr);
      const { config, dotenv } = JSON.parse(run.stdout) as { config: { env: string }; dotenv: Record<string, string> };
      // The environment is the configuration's; APP_ENV is no file's variable here.
      assert.equal(config.env, 'dev');
      assert.deepEqual(dotenv, { APP_SECRET: '', TRUSTED_PROXIES: '10.0.0.0/8' });
    } finally {
      rmSync(bare, { recursive: true, force: true });
    }
  });

  it('lists what .env.local defines when it chooses the test environment, which start-up read before it chose', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'keel-cli-config-local-'));
    try {
      writeFileSync(join(dir, '.env'), 'APP_ENV=dev\n');
      writeFileSync(join(dir, '.env.local'), 'APP_ENV=test\nLOCAL_ONLY=x\n');
      writeFileSync(join(dir, '.env.test'), 'TEST_ONLY=y\n');
      const run = await runKeel(['config', '--format=json'], { cwd: dir });
      assert.equal(run.code, 0, run.stderr);
      const { config, dotenv } = JSON.parse(run.stdout) as { config: { env: string }; dotenv: Record<string, string> };
      assert.equal(config.env, 'test');
      assert.deepEqual(dotenv, { APP_ENV: 'test', LOCAL_ONLY: 'x', TEST_ONLY: 'y' });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('writes a value\'s control characters escaped, so that none acts on the terminal, a multi-line value on lines of its own', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'keel-cli-config-controls-'));
    try {
      // An OSC 52 sequence sets the terminal's clipboard.
      writeFileSync(join(dir, '.env'), 'BANNER="\u001b]52;c;cHduZWQ=\u0007one\\ntwo"\n');
      const run = await runKeel(['config'], { cwd: dir });
      assert.equal(run.code, 0, run.stderr);
      assert.doesNotMatch(run.stdout, /(?!\n)\p{Cc}/u);
      assert.match(run.stdout, /^BANNER {2}\\u001b\]52;c;cHduZWQ=\\u0007one\n {8}two$/m);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('fails in one line on an invalid setting', async () => {
    const run = await runKeel(['config'], { cwd: projectDir, env: { TRUSTED_PROXIES: 'not-an-address' } });
    assert.equal(run.code, 1);
    assert.equal(run.stderr.split('\n').length, 2, run.stderr);
    assert.match(run.stderr, /^error: .*TRUSTED_PROXIES/);
  });
});
