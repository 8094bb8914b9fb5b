import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { createApp } from '../../src/app.js';
import { loadConfig } from '../../src/config/load-config.js';
import { createLogger } from '../../src/logging/create-logger.js';
import { demoRoutes } from '../../demo/routes.js';
import { rawRequest } from '../helpers/raw-http.js';
import { runKeel } from './run-keel.js';

/** Serves a few requests with the demo in a fresh project directory, then stops it: the profiles stay on disk. */
async function recordProfiles(projectDir: string): Promise<{ notFound: string; ok: string }> {
  const config = loadConfig({ cwd: projectDir, env: { APP_ENV: 'dev' } });
  const logger = createLogger({ env: config.env, debug: config.debug, file: config.log.file, stderr: false });
  const app = createApp({ config, routes: demoRoutes, logger });
  const server = await app.listen({ port: 0, host: '127.0.0.1' });
  try {
    const notFound = await rawRequest(server.port, { path: '/robots.txt' });
    const ok = await rawRequest(server.port, { path: '/api/status' });
    return { notFound: notFound.header('x-debug-token')!, ok: ok.header('x-debug-token')! };
  } finally {
    await app.close();
  }
}

describe('keel profiler:list, profiler:show and profiler:purge', () => {
  let projectDir: string;
  let tokens: { notFound: string; ok: string };

  before(async () => {
    projectDir = mkdtempSync(join(tmpdir(), 'keel-cli-profiler-'));
    writeFileSync(join(projectDir, '.env'), 'APP_ENV=dev\n');
    tokens = await recordProfiles(projectDir);
  });
  after(() => rmSync(projectDir, { recursive: true, force: true }));

  it('lists the profiles of the project, the error sub-request with its parent', async () => {
    const run = await runKeel(['profiler:list'], { cwd: projectDir });
    assert.equal(run.code, 0, run.stderr);
    assert.match(run.stdout, /^Token\s+Time\s+Method\s+Status\s+IP\s+URL\s+Parent$/m);
    assert.match(run.stdout, new RegExp(`^${tokens.notFound}\\s+\\S+\\s+GET\\s+404\\s+127\\.0\\.0\\.1\\s+http://localhost/robots\\.txt$`, 'm'));
    assert.match(run.stdout, new RegExp(`^${tokens.ok}\\s+\\S+\\s+GET\\s+200\\s+127\\.0\\.0\\.1\\s+http://localhost/api/status$`, 'm'));
    assert.match(run.stdout, new RegExp(`^[0-9a-f]{6}\\s+\\S+\\s+GET\\s+404\\s+\\S+\\s+http://localhost/robots\\.txt\\s+${tokens.notFound}$`, 'm'));
  });

  it('names the Redis storage it cannot reach, password hidden, in one line', async () => {
    const run = await runKeel(['profiler:list'], { cwd: projectDir, env: { KEEL_PROFILER_STORAGE: 'redis://:s3cret@127.0.0.1:1/0' } });
    assert.equal(run.code, 1);
    assert.match(run.stderr, /^error: cannot read the Redis profile storage at redis:\/\/:\*{6}@127\.0\.0\.1:1\/0: .+\n$/);
    assert.doesNotMatch(run.stderr, /s3cret/);
  });

  it('filters by status and limits the count, as JSON for scripts', async () => {
    const run = await runKeel(['profiler:list', '--status=404', '--limit=5', '--format=json'], { cwd: projectDir });
    assert.equal(run.code, 0, run.stderr);
    const found = JSON.parse(run.stdout) as { token: string; statusCode: number; url: string }[];
    assert.ok(found.length >= 1 && found.length <= 5);
    assert.ok(found.every((profile) => profile.statusCode === 404));
    assert.ok(found.some((profile) => profile.token === tokens.notFound));
    // The first digits of a status: a class of them, not a digit anywhere (0 is in 404 and 200).
    const byClass = await runKeel(['profiler:list', '--status=4', '--format=json'], { cwd: projectDir });
    assert.deepEqual([...new Set((JSON.parse(byClass.stdout) as { statusCode: number }[]).map((profile) => profile.statusCode))], [404]);
    assert.deepEqual(JSON.parse((await runKeel(['profiler:list', '--status=0', '--format=json'], { cwd: projectDir })).stdout), []);
    // A method in any case, as router:match takes it.
    const byMethod = await runKeel(['profiler:list', '--method=get', '--format=json'], { cwd: projectDir });
    assert.ok((JSON.parse(byMethod.stdout) as { method: string }[]).some((profile) => profile.method === 'GET'));
  });

  it('shows a profile as text: request, response, exception and logs', async () => {
    const run = await runKeel(['profiler:show', tokens.notFound], { cwd: projectDir });
    assert.equal(run.code, 0, run.stderr);
    assert.match(run.stdout, new RegExp(`^Profile ${tokens.notFound}: GET http://localhost/robots\\.txt → 404$`, 'm'));
    assert.match(run.stdout, /^Request\nMethod\s+GET$/m);
    assert.match(run.stdout, /^Status\s+404 Not Found$/m);
    assert.match(run.stdout, /^NotFoundHttpException \[KEEL_ERR_ROUTE_NOT_FOUND\]: No route found for "GET http:\/\/localhost\/robots\.txt"$/m);
    assert.match(run.stdout, /^Caused by: ResourceNotFoundException: No routes found for "\/robots\.txt\/"\.$/m);
    assert.match(run.stdout, /^Logs \([1-9]\d*\)$/m);
    assert.match(run.stdout, /ERROR\s+request\s+Uncaught PHP Exception/);
  });

  it('shows the stored record as JSON', async () => {
    const run = await runKeel(['profiler:show', tokens.ok, '--format=json'], { cwd: projectDir });
    assert.equal(run.code, 0, run.stderr);
    const profile = JSON.parse(run.stdout) as { token: string; statusCode: number; collectors: Record<string, unknown> };
    assert.equal(profile.token, tokens.ok);
    assert.equal(profile.statusCode, 200);
    assert.ok('request' in profile.collectors && 'logger' in profile.collectors);
  });

  it('fails with exit code 1 for a token it does not have, and 2 for something that is not a token', async () => {
    const missing = await runKeel(['profiler:show', 'abcdef'], { cwd: projectDir });
    assert.equal(missing.code, 1);
    assert.equal(missing.stderr, 'error: no profile "abcdef" in var/profiler\n');
    const invalid = await runKeel(['profiler:show', '../etc'], { cwd: projectDir });
    assert.equal(invalid.code, 2);
    assert.equal(invalid.stderr, 'error: "../etc" is not a profile token (six lowercase hexadecimal characters, or latest)\n');
  });

  it('shows the newest request for latest, as /_profiler/latest does', async () => {
    const run = await runKeel(['profiler:show', 'latest', '--format=json'], { cwd: projectDir });
    assert.equal(run.code, 0, run.stderr);
    assert.equal((JSON.parse(run.stdout) as { token: string }).token, tokens.ok);
  });

  it('says so when the profiles live in server memory only', async () => {
    const run = await runKeel(['profiler:list'], { cwd: projectDir, env: { KEEL_PROFILER_STORAGE: 'memory' } });
    assert.equal(run.code, 1);
    assert.equal(run.stderr, 'error: profiles are kept in server memory only (KEEL_PROFILER_STORAGE=memory): nothing to read from here\n');
  });

  it('refuses a var/profiler that is not a folder instead of listing or purging nothing', async () => {
    const odd = mkdtempSync(join(tmpdir(), 'keel-cli-profiler-file-'));
    try {
      mkdirSync(join(odd, 'var'));
      writeFileSync(join(odd, 'var', 'profiler'), 'not a folder\n');
      for (const command of ['profiler:list', 'profiler:purge']) {
        const run = await runKeel([command], { cwd: odd });
        assert.equal(run.code, 1, command);
        assert.equal(run.stderr, 'error: var/profiler is not a folder: no profile storage there\n', command);
      }
    } finally {
      rmSync(odd, { recursive: true, force: true });
    }
  });

  it('purges every profile', async () => {
    const purge = await runKeel(['profiler:purge'], { cwd: projectDir });
    assert.equal(purge.code, 0, purge.stderr);
    assert.equal(purge.stdout, 'Purged the profiles in var/profiler.\n');
    const list = await runKeel(['profiler:list'], { cwd: projectDir });
    assert.equal(list.stdout, 'No profiles found.\n');
  });
});
