import assert from 'node:assert/strict';
import { after, before, describe, it, mock } from 'node:test';
import { rawRequest, type RawResponse } from '../helpers/raw-http.js';
import { startDemo, type RunningDemo } from '../helpers/start-demo.js';

const CLIENT = { 'x-forwarded-for': '198.51.100.9', host: 'app.example.test', 'x-forwarded-proto': 'https', 'x-forwarded-port': '443' };

function rateHeaders(response: RawResponse): [string, string][] {
  return response.headers.filter(([name]) => /^(x-ratelimit-|ratelimit|retry-after)/i.test(name));
}

describe('rate limits over real TCP, as the demo configures them', () => {
  let demo: RunningDemo;
  before(async () => {
    demo = await startDemo({ RATE_LIMIT_DEFAULT_PATHS: '/api/' });
  });
  after(async () => {
    await demo.close();
  });

  it('admits 50 requests to /api/limited from one client, then answers 429 with the rate headers', async () => {
    const statuses: number[] = [];
    let last: RawResponse | undefined;
    for (let i = 0; i < 52; i++) {
      last = await rawRequest(demo.port, { path: '/api/limited', headers: { ...CLIENT, accept: 'application/json' } });
      statuses.push(last.status);
      if (i === 0) assert.deepEqual(JSON.parse(last.body), { ok: true, remaining: 49 });
    }
    assert.deepEqual(statuses, [...Array(50).fill(200), 429, 429]);
    const body = JSON.parse(last!.body) as { status: number; detail: string };
    assert.deepEqual([body.status, body.detail], [429, 'API rate limit exceeded']);
    const headers = rateHeaders(last!);
    assert.deepEqual(headers.map(([name]) => name), ['X-RateLimit-Remaining', 'X-RateLimit-Retry-After', 'X-RateLimit-Limit', 'Retry-After', 'RateLimit-Policy', 'RateLimit']);
    assert.equal(last!.header('x-ratelimit-limit'), '50');
    assert.match(last!.header('retry-after')!, /^(29|30)$/);
    assert.equal(last!.header('ratelimit-policy'), '"default";q=50;w=30');
    assert.match(last!.header('ratelimit')!, /^"default";r=0;t=(29|30)$/);
  });

  it('admits 20 logins, then answers 429 in the negotiated format, the X-RateLimit headers before Retry-After', async () => {
    const statuses: number[] = [];
    let last: RawResponse | undefined;
    for (let i = 0; i < 21; i++) {
      last = await rawRequest(demo.port, { method: 'POST', path: '/login', headers: { ...CLIENT, 'x-forwarded-for': '203.0.113.50', accept: 'text/html', 'content-type': 'application/x-www-form-urlencoded' }, body: 'username=alice' });
      statuses.push(last.status);
    }
    assert.deepEqual(statuses, [...Array(20).fill(200), 429]);
    assert.match(last!.body, /<!-- {2}\(429 Too Many Requests\) -->/);
    const names = last!.headerNames();
    assert.ok(names.indexOf('X-RateLimit-Limit') < names.indexOf('Retry-After') && names.indexOf('Retry-After') < names.indexOf('Vary'), names.join(', '));
  });

  it('stops one address trying a password across accounts at 100 logins, five times the per-account quota', async () => {
    const login = (username: string, ip = '203.0.113.51') =>
      rawRequest(demo.port, { method: 'POST', path: '/login', headers: { ...CLIENT, 'x-forwarded-for': ip, 'content-type': 'application/x-www-form-urlencoded' }, body: `username=${username}&password=guess` });
    const statuses: number[] = [];
    for (let i = 0; i < 100; i++) statuses.push((await login(`user${i}`)).status);
    assert.deepEqual(statuses, Array(100).fill(200));
    const refused = await login('user100');
    assert.equal(refused.status, 429);
    assert.equal(refused.header('x-ratelimit-limit'), '100');
    assert.match(refused.header('ratelimit-policy')!, /^"sensitive";q=20;w=30, "sensitive\.address";q=100;w=30$/);
    assert.equal((await login('user100', '203.0.113.52')).status, 200);
  });

  it('sends the reference bare 429 on /limited-bare: no rate header, no Retry-After', async () => {
    let last: RawResponse | undefined;
    for (let i = 0; i < 21; i++) last = await rawRequest(demo.port, { path: '/limited-bare', headers: { ...CLIENT, 'x-forwarded-for': '203.0.113.60' } });
    assert.equal(last!.status, 429);
    assert.deepEqual(rateHeaders(last!), []);
  });

  it('counts /api/* paths under the default limiter by prefix, /api/limited, which names it, included', async () => {
    const client = { ...CLIENT, 'x-forwarded-for': '203.0.113.70' };
    const response = await rawRequest(demo.port, { path: '/api/status', headers: client });
    assert.equal(response.header('ratelimit'), '"default";r=49;t=30');
    const limited = await rawRequest(demo.port, { path: '/api/limited', headers: { ...client, accept: 'application/json' } });
    assert.deepEqual(JSON.parse(limited.body), { ok: true, remaining: 48 });
    assert.equal(limited.header('ratelimit'), '"default";r=48;t=30');
  });

  it('never limits the profiler nor the 404 of an unmatched path', async () => {
    const missing = await rawRequest(demo.port, { path: '/robots.txt', headers: CLIENT });
    assert.equal(missing.status, 404);
    assert.deepEqual(rateHeaders(missing), []);
    const token = missing.header('x-debug-token')!;
    for (let i = 0; i < 3; i++) assert.deepEqual(rateHeaders(await rawRequest(demo.port, { path: `/_profiler/${token}`, headers: CLIENT })), []);
  });

  it('shows every limiter consulted in the profiler panel', async () => {
    const hit = await rawRequest(demo.port, { path: '/limited', headers: { ...CLIENT, 'x-forwarded-for': '203.0.113.80' } });
    const panel = await rawRequest(demo.port, { path: `/_profiler/${hit.header('x-debug-token')}?panel=rate_limiter`, headers: CLIENT });
    assert.equal(panel.status, 200);
    assert.match(panel.body, /Rate Limiter/);
    assert.match(panel.body, /<td>sensitive<\/td><td>fixed_window<\/td><td>limited<\/td><td>203\.0\.113\.80<\/td><td class="status-success">accepted<\/td><td>19<\/td><td>20<\/td>/);
  });
});

describe('a new window over real TCP, with a 1-second interval', () => {
  let demo: RunningDemo;
  before(async () => {
    demo = await startDemo({ RATE_LIMIT_DEFAULT_INTERVAL: '1', RATE_LIMIT_DEFAULT_LIMIT: '3' });
  });
  after(async () => {
    await demo.close();
  });

  it('admits again once the window has passed', async () => {
    const hit = () => rawRequest(demo.port, { path: '/api/limited', headers: CLIENT }).then((r) => r.status);
    // The app runs in this process: its clock is held, so that the four hits share one window however long
    // a loaded machine takes to answer them, and the window ends when the test moves the clock past it.
    mock.timers.enable({ apis: ['Date'], now: Date.now() });
    try {
      const first = [await hit(), await hit(), await hit(), await hit()];
      assert.deepEqual(first, [200, 200, 200, 429]);
      mock.timers.tick(999);
      assert.equal(await hit(), 429, 'still within the window');
      mock.timers.tick(2);
      assert.equal(await hit(), 200, 'past the window');
    } finally {
      mock.timers.reset();
    }
  });
});
