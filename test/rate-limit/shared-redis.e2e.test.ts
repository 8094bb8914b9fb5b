import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { rawRequest } from '../helpers/raw-http.js';
import { startRedis, type RunningRedis } from '../helpers/redis.js';
import { startKeelProcess, type KeelProcess } from './keel-process.js';

const TIMEOUT_MS = 200;

describe('two keel processes sharing one Redis', () => {
  let redis: RunningRedis;
  let keels: KeelProcess[];
  before(async () => {
    redis = await startRedis();
    const env = { RATE_LIMIT_STORAGE: redis.url, RATE_LIMIT_TIMEOUT: String(TIMEOUT_MS), RATE_LIMIT_DEFAULT_PATHS: '/api/' };
    keels = await Promise.all([startKeelProcess(env), startKeelProcess(env)]);
  });
  after(async () => {
    await Promise.all((keels ?? []).map((keel) => keel.close()));
    await redis?.close();
  });

  it('admit exactly the limit together when one client hammers both concurrently', async () => {
    // Both connected first: a request that beats the first connection is decided by the fail mode.
    for (const keel of keels) await waitForStorage(keel.port);
    const headers = { 'x-forwarded-for': '198.51.100.20' };
    const requests = Array.from({ length: 160 }, (_, i) => rawRequest(keels[i % 2]!.port, { path: '/api/limited', headers }));
    const statuses = (await Promise.all(requests)).map((response) => response.status);
    assert.equal(statuses.filter((status) => status === 200).length, 50);
    assert.equal(statuses.filter((status) => status === 429).length, 110);
  });

  it('hold the fail modes while Redis is down, answer within the timeout, and recover by themselves', async () => {
    const login = (port: number, ip: string) =>
      rawRequest(port, { method: 'POST', path: '/login', headers: { 'x-forwarded-for': ip, 'content-type': 'application/x-www-form-urlencoded' }, body: 'username=bob' });
    const api = (port: number, ip: string) => rawRequest(port, { path: '/api/limited', headers: { 'x-forwarded-for': ip } });
    assert.equal((await login(keels[0]!.port, '198.51.100.30')).status, 200);

    const logged = keels.map((keel) => keel.log().length);
    await redis.stop();
    for (let i = 0; i < 6; i++) {
      const port = keels[i % 2]!.port;
      const started = performance.now();
      const [open, closed] = [await api(port, `198.51.100.${40 + i}`), await login(port, '198.51.100.30')];
      const elapsed = performance.now() - started;
      assert.equal(open.status, 200, 'default fails open');
      assert.equal(closed.status, 503, `sensitive fails closed: ${closed.body.slice(0, 300)}`);
      assert.equal(closed.header('retry-after'), '1');
      // Two requests, each bounded by the storage timeout; the margin covers the process, not the storage.
      assert.ok(elapsed < 2 * TIMEOUT_MS + 800, `two requests took ${Math.round(elapsed)} ms`);
    }

    await redis.start();
    let status = 503;
    for (let attempt = 0; attempt < 100 && status === 503; attempt++) {
      await new Promise((resolve) => setTimeout(resolve, 50));
      status = (await login(keels[1]!.port, '198.51.100.31')).status;
    }
    assert.equal(status, 200, 'recovered without a restart');
    for (const [i, keel] of keels.entries()) {
      assert.ok(keel.child.exitCode === null, 'still running');
      const lines = keel.log().slice(logged[i]).split('\n');
      assert.equal(lines.filter((line) => line.includes('rate limiter storage unavailable')).length, 1, 'one log line per outage');
    }
    assert.ok(keels[1]!.log().slice(logged[1]).includes('rate limiter storage recovered'));
  });
});

async function waitForStorage(port: number): Promise<void> {
  for (let attempt = 0; attempt < 100; attempt++) {
    const response = await rawRequest(port, { path: '/api/status', headers: { 'x-forwarded-for': '192.0.2.1' } });
    if (response.header('ratelimit') !== undefined) return;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error('the rate limiter storage never answered');
}

describe('memory storage under node:cluster', () => {
  it('refuses to start, naming the setting to use instead', () => {
    const result = spawnSync(process.execPath, ['--import', import.meta.resolve('tsx'), join(import.meta.dirname, 'fixtures', 'cluster-memory.ts')], { encoding: 'utf8', timeout: 60_000 });
    assert.match(result.stdout, /worker refused: KEEL_ERR_CONFIG_RATE_LIMITER .*node:cluster workers.*RATE_LIMIT_STORAGE=redis:\/\//);
    assert.equal(result.status, 0);
  });
});
