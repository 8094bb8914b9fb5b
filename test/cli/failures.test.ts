import assert from 'node:assert/strict';
import { openSync, closeSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { after, before, describe, it } from 'node:test';
import { startRedis, type RunningRedis } from '../helpers/redis.js';
import { cleanEnv, KEEL_BIN, REPO_ROOT, runKeel, spawnKeel } from './run-keel.js';

const UNKNOWN_LIMITER_APP = fileURLToPath(new URL('./fixtures/unknown-limiter-app.ts', import.meta.url));

describe('keel commands that fail', () => {
  let redis: RunningRedis;
  before(async () => {
    redis = await startRedis();
  });
  after(() => redis.close());

  it('exit after their one-line error even when the app had opened Redis stores before failing', { timeout: 30_000 }, async () => {
    const settings: Record<string, string>[] = [{ RATE_LIMIT_STORAGE: redis.url }, { RATE_LIMIT_STORAGE: redis.url, KEEL_PROFILER_STORAGE: redis.url }];
    // A process waiting on the open connections would not exit: the test's timeout says so.
    for (const env of settings) {
      const run = await runKeel(['debug:router', '--app', UNKNOWN_LIMITER_APP], { env: { APP_ENV: 'dev', ...env } });
      assert.equal(run.code, 1, run.stderr);
      assert.match(run.stderr, /^error: .*"nope"/);
    }
  });

  it('say in one line, exit code 1, that an application module whose top-level await never settles kept them from finishing', { timeout: 30_000 }, async () => {
    const run = await runKeel(['debug:router', '--app', fileURLToPath(new URL('./fixtures/never-loading-app.ts', import.meta.url))]);
    assert.equal(run.code, 1);
    assert.match(run.stderr, /^error: the command could not finish: .*top-level await/);
  });

  // Node's words speak of require() and cycles: the fix is a line of package.json.
  it('say to add "type": "module" when the application module is CommonJS to node and keel is not', { timeout: 30_000 }, async () => {
    const project = mkdtempSync(join(tmpdir(), 'keel-cjs-app-'));
    try {
      writeFileSync(join(project, 'package.json'), JSON.stringify({ name: 'app' }));
      writeFileSync(join(project, 'routes.ts'), `import { Response } from ${JSON.stringify(join(REPO_ROOT, 'src', 'index.ts'))};\nexport const routes = [{ name: 'home', path: '/', controller: () => new Response('hi') }];\n`);
      const run = await runKeel(['debug:router', '--app', 'routes.ts'], { cwd: project });
      assert.equal(run.code, 1, run.stderr);
      assert.match(run.stderr, /^error: cannot load application module "routes\.ts": .*\(keel is an ES module: add "type": "module" to the package\.json of the application, or name it \.mts\)\n$/);
    } finally {
      rmSync(project, { recursive: true, force: true });
    }
  });

  it('mask the password of a storage URL in their error, in the userinfo or the query', async () => {
    const invalid = await runKeel(['config'], { env: { RATE_LIMIT_STORAGE: 'http://:topsecret@h:6379' } });
    assert.equal(invalid.code, 1);
    assert.match(invalid.stderr, /RATE_LIMIT_STORAGE="http:\/\/:\*{6}@h:6379" is invalid/);
    const unreachable = await runKeel(['profiler:list'], { env: { APP_ENV: 'dev', KEEL_PROFILER_STORAGE: 'redis://127.0.0.1:1/0?password=TOPSECRET' } });
    assert.equal(unreachable.code, 1);
    assert.match(unreachable.stderr, /password=\*{6}/);
    assert.doesNotMatch(invalid.stderr + unreachable.stderr, /topsecret|TOPSECRET/);
  });

  it('keep their exit code when the reader of their output goes away, and say in one line that the output cannot be written', { timeout: 30_000 }, async () => {
    const dir = mkdtempSync(join(tmpdir(), 'keel-cli-pipe-'));
    try {
      // Enough routes for router:match to fill a pipe with the reasons each one missed.
      const app = join(dir, 'big.mjs');
      const routes = Array.from({ length: 5_000 }, (_, i) => `{ name: 'r${i}', path: '/r${i}', controller: () => null }`);
      writeFileSync(app, `export const routes = [${routes.join(',')}];\n`);
      const child = spawnKeel(['router:match', '/nope', '--app', app]);
      child.stdout!.once('data', () => child.stdout!.destroy());
      const code = await new Promise((resolve) => child.on('close', resolve));
      assert.equal(code, 1, 'a 404 stays a failure when the output is cut short');

      const full = openSync('/dev/full', 'w');
      try {
        const run = spawn(process.execPath, [KEEL_BIN, 'debug:router'], { cwd: REPO_ROOT, env: cleanEnv(), stdio: ['ignore', full, 'pipe'] });
        let stderr = '';
        run.stderr!.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
        assert.equal(await new Promise((resolve) => run.on('close', resolve)), 1);
        assert.equal(stderr, 'error: cannot write the output: ENOSPC: no space left on device, write\n');
      } finally {
        closeSync(full);
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
