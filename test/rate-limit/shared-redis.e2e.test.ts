import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { rawRequest } from '../helpers/raw-http.js';
import { startRedis, type RunningRedis } from '../helpers/redis.js';
import { startKeelProcess, type KeelProcess } from './keel-process.js';

const TIMEOUT_MS = 200;

/** Redis of the test's own and two keel processes pointing at it, started before and closed after the suite. */
function twoKeelsOnOneRedis(timeoutMs: number) {
  const context = { redis: undefined as unknown as RunningRedis, keels: [] as KeelProcess[] };
  before(async () => {
    context.redis = await startRedis();
    const env = { RATE_LIMIT_STORAGE: context.redis.url, RATE_LIMIT_TIMEOUT: String(timeoutMs), RATE_LIMIT_DEFAULT_PATHS: '/api/' };
    context.keels = await Promise.all([startKeelProcess(env), startKeelProcess(env)]);
    for (const keel of context.keels) await waitForStorage(keel.port);
  });
  after(async () => {
    await Promise.all(context.keels.map((keel) => keel.close()));
    await context.redis?.close();
  });
  return context;
}

describe('two keel processes sharing one Redis', () => {
  // A generous deadline: on a busy machine a slow answer would be decided by the fail mode (open for
  // `default`), and this test is about the count, not the deadline.
  const shared = twoKeelsOnOneRedis(3_000);

  it('admit exactly the limit together when one client hammers both concurrently', async () => {
    const headers = { 'x-forwarded-for': '198.51.100.20' };
    const requests = Array.from({ length: 160 }, (_, i) => rawRequest(shared.keels[i % 2]!.port, { path: '/api/limited', headers }));
    const responses = await Promise.all(requests);
    const admitted = responses.filter((response) => response.status === 200);
    assert.equal(admitted.length, 50);
    assert.equal(responses.filter((response) => response.status === 429).length, 110);
    assert.ok(admitted.every((response) => response.header('ratelimit') !== undefined), 'every admission decided by Redis');
    assert.deepEqual(admitted.map((response) => Number(response.header('x-ratelimit-remaining'))).sort((a, b) => a - b), Array.from({ length: 50 }, (_, i) => i));
  });
});

describe('two keel processes when Redis stops and comes back', () => {
  const shared = twoKeelsOnOneRedis(TIMEOUT_MS);

  // Redis stays down until the loop is over: a request that waited for it would never be answered, and the
  // test's own timeout would fail it.
  it('hold the fail modes while Redis is down, answer within the timeout, and recover by themselves', { timeout: 60_000 }, async () => {
    const { keels, redis } = shared;
    const login = (port: number, ip: string) =>
      rawRequest(port, { method: 'POST', path: '/login', headers: { 'x-forwarded-for': ip, 'content-type': 'application/x-www-form-urlencoded' }, body: 'username=bob' });
    const api = (port: number, ip: string) => rawRequest(port, { path: '/api/limited', headers: { 'x-forwarded-for': ip } });
    // On a busy machine a first answer slower than the timeout is (rightly) refused, which begins an outage;
    // the outage under test must be a new one. Both processes answer, and have logged the end of any earlier
    // outage (at the first answer a second after its last failure), before Redis stops.
    const settled = (log: string) => log.lastIndexOf('rate limiter storage unavailable') <= log.lastIndexOf('rate limiter storage recovered');
    let ready = false;
    for (let attempt = 0; attempt < 150 && !ready; attempt++) {
      const statuses = await Promise.all(keels.map(async (keel) => (await login(keel.port, `198.51.100.${100 + attempt}`)).status));
      ready = statuses.every((status) => status === 200) && keels.every((keel) => settled(keel.log()));
      if (!ready) await new Promise((resolve) => setTimeout(resolve, 50));
    }
    assert.ok(ready, 'both processes answer before Redis stops');

    const logged = keels.map((keel) => keel.log().length);
    await redis.stop();
    for (let i = 0; i < 6; i++) {
      const port = keels[i % 2]!.port;
      const [open, closed] = [await api(port, `198.51.100.${40 + i}`), await login(port, '198.51.100.30')];
      assert.equal(open.status, 200, 'default fails open');
      // No quota is known: the controller, reading RateLimit.degraded, claims none.
      assert.deepEqual(JSON.parse(open.body), { ok: true, remaining: null });
      assert.equal(closed.status, 503, `sensitive fails closed: ${closed.body.slice(0, 300)}`);
      assert.equal(closed.header('retry-after'), '1');
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
      // One line per outage, and a second only to name a cause the connection gave after the first failure
      // (ECONNREFUSED arrives once the client tries to reconnect, which may be after the first request failed).
      const outage = lines.filter((line) => line.includes('rate limiter storage unavailable'));
      assert.ok(outage.length === 1 || (outage.length === 2 && !outage[0]!.includes('the connection said') && outage[1]!.includes('the connection said')), outage.join('\n'));
    }
    // The end of the outage is logged at the first answer a second or more after its last failure.
    const recovered = () => keels[1]!.log().slice(logged[1]).includes('rate limiter storage recovered');
    for (let attempt = 0; attempt < 60 && !recovered(); attempt++) {
      await new Promise((resolve) => setTimeout(resolve, 50));
      await login(keels[1]!.port, '198.51.100.32');
    }
    assert.ok(recovered());
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
