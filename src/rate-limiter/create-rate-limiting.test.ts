import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { silentLogger } from '../logging/silent-logger.fixture.js';
import { RouteCollection } from '../routing/route-collection.js';
import { MAX_LIMIT } from './address-ceiling.js';
import { createRateLimiting } from './create-rate-limiting.js';


describe('createRateLimiting', () => {
  const sensitive = { policy: 'fixed_window' as const, limit: 2, interval: 30 };
  const refusal = (error: { code?: string; message: string }) => error.code === 'KEEL_ERR_CONFIG_RATE_LIMITER' && /cannot run in node:cluster workers.*RATE_LIMIT_STORAGE=redis:\/\//.test(error.message);

  it('refuses memory storage in node:cluster workers when a route or a path is limited, which each worker would admit whole', () => {
    const limitedRoute = new RouteCollection().add({ name: 'login', path: '/login', options: { limiters: ['sensitive'] } });
    assert.throws(() => createRateLimiting({ config: { rateLimiter: { sensitive } }, routes: limitedRoute, logger: silentLogger, isClusterWorker: true }), refusal);
    const limitedPath = { rateLimiter: { sensitive: { ...sensitive, paths: ['/api/'] } } };
    assert.throws(() => createRateLimiting({ config: limitedPath, routes: new RouteCollection(), logger: silentLogger, isClusterWorker: true }), refusal);
  });

  it('says that a route names no configured limiter, in a cluster worker too, for a name every object has', () => {
    const routes = new RouteCollection().add({ name: 'login', path: '/login', options: { limiters: ['constructor'] } });
    assert.throws(() => createRateLimiting({ config: { rateLimiter: { sensitive } }, routes, logger: silentLogger, isClusterWorker: true }), {
      code: 'KEEL_ERR_CONFIG_RATE_LIMITER',
      message: /^route "login" names the rate limiter "constructor", which is not configured \(known: sensitive\)/,
    });
  });

  // An application without rate limiting must be able to use every core on the embedded defaults.
  it('starts in cluster workers on memory storage when nothing is limited, and refuses a limiter consumed by hand there', async () => {
    const routes = new RouteCollection().add({ name: 'home', path: '/' }).add({ name: 'open', path: '/open', options: { limiters: ['off'] } });
    const config = { rateLimiter: { sensitive, off: { policy: 'no_limit' as const, limit: 1, interval: 1 } } };
    const { limiters } = createRateLimiting({ config, routes, logger: silentLogger, isClusterWorker: true });
    await assert.rejects(limiters.get('sensitive')!.consume('someone'), refusal);
  });

  it('starts with the largest limit the settings take, and names a limiter built in code with a larger one', () => {
    const routes = new RouteCollection().add({ name: 'login', path: '/login', options: { limiters: ['sensitive'], limiterAccount: 'username' } });
    const largest = { policy: 'fixed_window' as const, limit: MAX_LIMIT, interval: 30 };
    assert.equal(createRateLimiting({ config: { rateLimiter: { sensitive: largest } }, routes, logger: silentLogger }).limiters.get('sensitive')?.config.limit, MAX_LIMIT);
    for (const sensitive of [{ ...largest, limit: 2e15 }, { policy: 'token_bucket' as const, limit: 10, interval: 30, rate: { interval: 30, amount: 2e15 } }]) {
      assert.throws(() => createRateLimiting({ config: { rateLimiter: { sensitive } }, routes, logger: silentLogger }), {
        code: 'KEEL_ERR_CONFIG_RATE_LIMITER',
        message: /^The rate limiter "sensitive" allows at most 1801439850948198 tokens \(its limit and refill amount\), so that its per-address ceiling, 5 times it, counts exactly; got a limit of/,
      });
    }
  });

  it('fails open for the default limiter and closed for the others unless configured', () => {
    const { limiters } = createRateLimiting({
      config: { rateLimiter: { default: { policy: 'no_limit', limit: 1, interval: 1 }, sensitive: { policy: 'no_limit', limit: 1, interval: 1 }, search: { policy: 'no_limit', limit: 1, interval: 1, failMode: 'open' } } },
      routes: new RouteCollection(),
      logger: silentLogger,
    });
    assert.deepEqual([...limiters.values()].map((limiter) => limiter.failMode), ['open', 'closed', 'open']);
  });
});
