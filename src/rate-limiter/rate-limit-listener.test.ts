import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { RateLimiterConfig } from '../config/config.js';
import { createErrorController } from '../errors/error-controller.js';
import { ErrorListener } from '../errors/error-listener.js';
import { ErrorRenderer } from '../errors/renderers/error-renderer.js';
import { Request } from '../http/request.js';
import { Response } from '../http/response.js';
import { RequestEvent } from '../kernel/events.js';
import { Kernel } from '../kernel/kernel.js';
import { silentLogger } from '../logging/silent-logger.fixture.js';
import { Matcher } from '../routing/matcher.js';
import { RouteCollection } from '../routing/route-collection.js';
import type { RouteDefinition } from '../routing/route.js';
import { RouterListener } from '../routing/router-listener.js';
import { createRateLimiting } from './create-rate-limiting.js';


// The requests /login-ok answered, for the test of a reset after a successful login.
const loggedIn: Request[] = [];

const ROUTES: RouteDefinition[] = [
  { name: 'login_ok', path: '/login-ok', methods: ['POST'], controller: (request) => (loggedIn.push(request), Response.html('welcome\n')), options: { limiters: ['sensitive'], limiterAccount: 'username' } },
  { name: 'login', path: '/login', methods: ['POST'], controller: () => Response.html('login ok\n'), options: { limiters: ['sensitive'], limiterAccount: 'username' } },
  { name: 'limited_bare', path: '/limited-bare', controller: () => Response.html('ok\n'), options: { limiters: ['sensitive'], limiterHeaders: false } },
  { name: 'api_status', path: '/api/status', controller: () => Response.json({ ok: true }) },
  { name: '_profiler', path: '/_profiler/{token}', controller: () => Response.html('profile') },
  { name: 'free', path: '/free', controller: () => Response.html('free') },
  { name: '_api_internal', path: '/api/internal', controller: () => Response.json({ ok: true }) },
];

// Routes under the /api/ prefix that name limiters of their own, the prefix's `default` too.
const API_ROUTES: RouteDefinition[] = [
  { name: 'api_limited', path: '/api/limited', controller: () => Response.json({ ok: true }), options: { limiters: ['default'], limiterMessage: 'API rate limit exceeded' } },
  { name: 'api_login', path: '/api/login', methods: ['POST'], controller: (request) => (loggedIn.push(request), Response.json({ ok: true })), options: { limiters: ['sensitive'], limiterAccount: 'username' } },
];

function app(limiters: Record<string, RateLimiterConfig> = {}) {
  let now = 1_800_000_000_000;
  const routes = new RouteCollection().addAll([...ROUTES, ...API_ROUTES]);
  const kernel = new Kernel();
  const rateLimiter = {
    default: { policy: 'fixed_window', limit: 3, interval: 30, paths: ['/api/', '/_profiler/'] },
    sensitive: { policy: 'fixed_window', limit: 2, interval: 30 },
    ...limiters,
  } satisfies Record<string, RateLimiterConfig>;
  const rateLimiting = createRateLimiting({ config: { rateLimiter }, routes, logger: silentLogger, clock: () => now });
  kernel.dispatcher.addSubscriber(new RouterListener({ matcher: new Matcher(routes), logger: silentLogger }));
  kernel.dispatcher.addSubscriber(rateLimiting.listener);
  kernel.dispatcher.addSubscriber(new ErrorListener({ logger: silentLogger, debug: false, controller: createErrorController(new ErrorRenderer({ debug: false })) }));
  const send = (method: string, target: string, { ip = '203.0.113.7', body, type }: { ip?: string; body?: string; type?: string } = {}) =>
    kernel.handle(new Request({ method, target, remoteAddress: ip, headers: { host: 'localhost', accept: 'application/json', ...(type ? { 'content-type': type } : {}) }, body: body === undefined ? undefined : Buffer.from(body) }));
  return { send, advance: (ms: number) => void (now += ms), rateLimiting };
}

describe('RateLimitListener', () => {
  it('refuses the hit after the limit with the 429 contract, and admits again once the window is over', async () => {
    const { send, advance } = app();
    for (const remaining of ['1', '0']) assert.equal((await send('POST', '/login')).headers.get('X-RateLimit-Remaining'), remaining);
    advance(1_500);
    const refused = await send('POST', '/login');
    assert.equal(refused.status, 429);
    assert.deepEqual(
      [...refused.headers].filter(([name]) => /rate|retry/i.test(name)),
      [
        ['X-RateLimit-Remaining', '0'],
        ['X-RateLimit-Retry-After', '29'],
        ['X-RateLimit-Limit', '2'],
        ['Retry-After', '29'],
        // The address's ceiling (5 × the quota) is a policy of its own; the refused hit counts there.
        ['RateLimit-Policy', '"sensitive";q=2;w=30, "sensitive.address";q=10;w=30'],
        ['RateLimit', '"sensitive";r=0;t=29, "sensitive.address";r=7;t=29'],
      ],
    );
    assert.equal(JSON.parse(String(refused.body)).status, 429);
    advance(29_000);
    assert.equal((await send('POST', '/login')).status, 200);
  });

  it('puts the headers of an accepted hit before Cache-Control and Date, as the reference\'s controllers do', async () => {
    const { send } = app();
    const accepted = await send('POST', '/login');
    assert.equal(accepted.status, 200);
    const names = [...accepted.headers].map(([name]) => name);
    assert.deepEqual(names.slice(names.indexOf('X-RateLimit-Remaining'), names.indexOf('X-RateLimit-Remaining') + 3), ['X-RateLimit-Remaining', 'X-RateLimit-Retry-After', 'X-RateLimit-Limit']);
    assert.ok(names.indexOf('X-RateLimit-Limit') < names.indexOf('Cache-Control'), names.join(', '));
    assert.ok(names.indexOf('Cache-Control') < names.indexOf('Date'), names.join(', '));
  });

  it('keys a login by address and the account it names', async () => {
    const { send } = app();
    const as = (username: string) => send('POST', '/login', { body: `username=${username}`, type: 'application/x-www-form-urlencoded' });
    await as('alice');
    await as('Alice');
    assert.equal((await as('ALICE')).status, 429);
    assert.equal((await as('bob')).status, 200);
    assert.equal((await send('POST', '/login', { ip: '198.51.100.1', body: 'username=alice', type: 'application/x-www-form-urlencoded' })).status, 200);
  });

  it('caps an address trying account after account at five times the quota, as Symfony\'s login throttling does', async () => {
    const { send, advance } = app();
    const as = (username: string, ip = '203.0.113.7') => send('POST', '/login', { ip, body: `username=${username}`, type: 'application/x-www-form-urlencoded' });
    // Limit 2 per account: ten accounts once each fill the address's ceiling of 10.
    for (let i = 0; i < 10; i++) assert.equal((await as(`user${i}`)).status, 200, `user${i}`);
    const refused = await as('user10');
    assert.equal(refused.status, 429);
    assert.equal(refused.headers.get('X-RateLimit-Limit'), '10');
    assert.equal(refused.headers.get('Retry-After'), '30');
    // Without an account named, the request counts against the ceiling all the same.
    assert.equal((await send('POST', '/login', { body: 'password=x', type: 'application/x-www-form-urlencoded' })).status, 429);
    // Another address has its own ceiling; the first is admitted again once the window is over.
    assert.equal((await as('user10', '198.51.100.1')).status, 200);
    advance(31_000);
    assert.equal((await as('user10')).status, 200);
  });

  it('forgets, on reset after a successful login, what the request counted: the account\'s quota and the address\'s ceiling', async () => {
    const { send, rateLimiting } = app();
    const as = (username: string) => send('POST', '/login-ok', { body: `username=${username}`, type: 'application/x-www-form-urlencoded' });
    await as('alice');
    await rateLimiting.reset(loggedIn.at(-1)!);
    const after = await as('alice');
    assert.equal(after.headers.get('RateLimit'), '"sensitive";r=1;t=30, "sensitive.address";r=9;t=30');
  });

  it('answers the bare 429 of the reference, without any rate header, when the route asks for it', async () => {
    const { send } = app();
    for (let i = 0; i < 2; i++) assert.equal((await send('GET', '/limited-bare')).headers.has('X-RateLimit-Limit'), false);
    const refused = await send('GET', '/limited-bare');
    assert.equal(refused.status, 429);
    assert.deepEqual([...refused.headers].filter(([name]) => /rate|retry/i.test(name)), []);
  });

  it('limits paths under a configured prefix, but never the profiler nor unmatched paths', async () => {
    const { send } = app();
    for (let i = 0; i < 3; i++) await send('GET', '/api/status');
    assert.equal((await send('GET', '/api/status')).status, 429);
    for (let i = 0; i < 5; i++) assert.equal((await send('GET', '/_profiler/abcdef')).headers.has('RateLimit'), false);
    const missing = await send('GET', '/robots.txt');
    assert.equal(missing.status, 404);
    assert.equal(missing.headers.has('X-RateLimit-Limit'), false);
    assert.equal((await send('GET', '/free')).headers.has('RateLimit'), false);
  });

  it('limits an application route under a configured prefix whatever its name, one starting with _ too', async () => {
    const { send } = app();
    for (let i = 0; i < 3; i++) await send('GET', '/api/internal');
    assert.equal((await send('GET', '/api/internal')).status, 429);
  });

  it('counts a route naming the limiter of its path prefix in the prefix\'s quota, which every path under it shares', async () => {
    const { send } = app();
    const statuses: number[] = [];
    for (const path of ['/api/status', '/api/limited']) for (let i = 0; i < 4; i++) statuses.push((await send('GET', path)).status);
    assert.deepEqual(statuses, [200, 200, 200, 429, 429, 429, 429, 429]);
  });

  it('counts a path in the quota of every prefix it lies under, not only the first listed of one limiter', async () => {
    const { send } = app({ default: { policy: 'fixed_window', limit: 3, interval: 30, paths: ['/api/status', '/api/'] } });
    for (let i = 0; i < 3; i++) await send('GET', '/api/status');
    assert.equal((await send('GET', '/api/internal')).status, 429);
  });

  it('answers such a route with the prefix\'s quota in its rate headers', async () => {
    const { send } = app();
    await send('GET', '/api/status');
    const hit = await send('GET', '/api/limited');
    assert.deepEqual([hit.headers.get('X-RateLimit-Remaining'), hit.headers.get('RateLimit-Policy'), hit.headers.get('RateLimit')], ['1', '"default";q=3;w=30', '"default";r=1;t=30']);
  });

  it('counts a route keyed by account in its prefix\'s quota by the address alone, whatever account it names', async () => {
    const { send } = app();
    const as = (username: string) => send('POST', '/api/login', { body: `username=${username}`, type: 'application/x-www-form-urlencoded' });
    await send('GET', '/api/status');
    await send('GET', '/api/status');
    const first = await as('alice');
    assert.equal(first.headers.get('RateLimit-Policy'), '"sensitive";q=2;w=30, "default";q=3;w=30, "sensitive.address";q=10;w=30');
    assert.equal((await as('bob')).status, 429);
  });

  it('counts a route keyed by account under a prefix of the same limiter in both quotas, listed once', async () => {
    const { send } = app({ sensitive: { policy: 'fixed_window', limit: 2, interval: 30, paths: ['/api/login'] } });
    const as = (username: string) => send('POST', '/api/login', { body: `username=${username}`, type: 'application/x-www-form-urlencoded' });
    assert.equal((await as('alice')).headers.get('RateLimit-Policy'), '"sensitive";q=2;w=30, "default";q=3;w=30, "sensitive.address";q=10;w=30');
    assert.equal((await as('bob')).headers.get('RateLimit'), '"sensitive";r=0;t=30, "default";r=1;t=30, "sensitive.address";r=8;t=30');
    assert.equal((await as('carol')).status, 429);
  });

  it('leaves the prefix\'s quota as it is on reset after a successful login, which forgets the route\'s', async () => {
    const { send, rateLimiting } = app();
    await send('GET', '/api/status');
    await send('POST', '/api/login', { body: 'username=alice', type: 'application/x-www-form-urlencoded' });
    await rateLimiting.reset(loggedIn.at(-1)!);
    assert.equal((await send('GET', '/api/status')).headers.get('X-RateLimit-Remaining'), '0');
  });

  it('counts a percent-encoded path under the prefix of the path it decodes to, as the router matches it', async () => {
    const { send } = app();
    // Each reaches the route of /api/status; spelled out or not, they share one budget.
    for (const target of ['/%61pi/status', '/api%2Fstatus', '/api/st%61tus']) assert.equal((await send('GET', target)).status, 200, target);
    const refused = await send('GET', '/%61%70%69/status');
    assert.equal(refused.status, 429);
    assert.equal((await send('GET', '/%5Fprofiler/abcdef')).headers.has('RateLimit'), false);
  });

  it('lets the router\'s trailing-slash redirects through without a token or rate headers, even past the limit', async () => {
    const { send } = app();
    for (let i = 0; i < 5; i++) {
      const redirect = await send('GET', '/api/status/');
      assert.equal(redirect.status, 301);
      assert.equal(redirect.headers.has('RateLimit'), false);
    }
    assert.equal((await send('GET', '/api/status')).headers.get('X-RateLimit-Remaining'), '2');
    for (let i = 0; i < 2; i++) await send('GET', '/api/status');
    assert.equal((await send('GET', '/api/status')).status, 429);
    assert.equal((await send('GET', '/api/status/')).status, 301);
  });

  it('refuses with 503 when a fail-closed limiter cannot reach its storage', async () => {
    const routes = new RouteCollection().addAll(ROUTES);
    const broken = { reserve: () => Promise.reject(new Error('down')), reset: () => Promise.resolve(), close: () => Promise.resolve() };
    const { GuardedStorage } = await import('./storage/guarded-storage.js');
    const { listener } = createRateLimiting({ config: { rateLimiter: { sensitive: { policy: 'fixed_window', limit: 2, interval: 30 } } }, routes, logger: silentLogger, storage: new GuardedStorage(broken) });
    const request = new Request({ method: 'POST', target: '/login' });
    request.attributes.route = 'login';
    const event = new RequestEvent(new Kernel(), request, 'main');
    await listener.onRequest(event);
    const error = event.failure?.error as { status?: number; code?: string } | undefined;
    assert.equal(error?.status, 503);
    assert.equal(error?.code, 'KEEL_ERR_RATE_LIMIT_STORAGE_UNAVAILABLE');
    assert.equal((error as Error | undefined)?.message, 'The rate limiter storage is unavailable.');
    assert.equal(event.isPropagationStopped, true);
  });

  it('stays synchronous when there is nothing to consume, so that such requests cost no tick', () => {
    const routes = new RouteCollection().addAll(ROUTES);
    const { listener } = createRateLimiting({ config: { rateLimiter: { sensitive: { policy: 'fixed_window', limit: 2, interval: 30 } } }, routes, logger: silentLogger });
    const free = new Request({ method: 'GET', target: '/free' });
    free.attributes.route = 'free';
    assert.equal(listener.onRequest({ request: free, isMainRequest: true } as never), undefined);
    const sub = new Request({ method: 'POST', target: '/login' });
    sub.attributes.route = 'login';
    assert.equal(listener.onRequest({ request: sub, isMainRequest: false } as never), undefined);
    assert.ok(listener.onRequest({ request: sub, isMainRequest: true } as never) instanceof Promise);
  });

  it('fails at start-up when a route names a limiter that is not configured', () => {
    const routes = new RouteCollection().add({ name: 'x', path: '/x', options: { limiters: ['nope'] } });
    assert.throws(() => createRateLimiting({ config: { rateLimiter: {} }, routes, logger: silentLogger }), /route "x" names the rate limiter "nope", which is not configured/);
  });

  it('fails at start-up on a mistyped limiter option, which would otherwise leave the route unlimited', () => {
    const config = { rateLimiter: { sensitive: { policy: 'fixed_window' as const, limit: 2, interval: 30 } } };
    for (const [options, message] of [
      [{ limiters: 'sensitive' }, /Route "login": options\.limiters must be a list of limiter names, such as \['sensitive'\] \(got "sensitive"\)/],
      [{ limiters: ['sensitive', 3] }, /options\.limiters must be a list/],
      [{ limiter: ['sensitive'] }, /Route "login": unknown option "limiter" \(did you mean "limiters"\?\); the limiter options of a route are limiters, limiterAccount, limiterHeaders, limiterMessage/],
      [{ limitters: ['sensitive'] }, /unknown option "limitters" \(did you mean "limiters"\?\)/],
      [{ Limiters: ['sensitive'] }, /unknown option "Limiters" \(did you mean "limiters"\?\)/],
      [{ limiters: ['sensitive'], limiterAcount: 'email' }, /unknown option "limiterAcount" \(did you mean "limiterAccount"\?\)/],
      [{ limiters: ['sensitive'], rate_limiters: ['x'] }, /unknown option "rate_limiters"/],
      [{ limiters: ['sensitive'], limiterAccount: true }, /options\.limiterAccount must be the name of a body field/],
      [{ limiters: ['sensitive'], limiterHeaders: 'no' }, /options\.limiterHeaders must be true or false/],
      [{ limiters: ['sensitive', 'sensitive'] }, /Route "login": options\.limiters names "sensitive" twice, which would count each request twice/],
    ] as const) {
      // Mistakes the route table's types refuse, as plain JavaScript or an untyped config would make them.
      const routes = new RouteCollection().add({ name: 'login', path: '/login', methods: ['POST'], options: options as never });
      assert.throws(() => createRateLimiting({ config, routes, logger: silentLogger }), { code: 'KEEL_ERR_CONFIG_RATE_LIMITER', message }, JSON.stringify(options));
    }
  });
});
