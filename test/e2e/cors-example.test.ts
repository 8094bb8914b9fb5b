import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { CorsListener, routes, type CorsOptions } from '../../examples/cors.js';
import { createApp } from '../../src/app.js';
import { loadConfig } from '../../src/config/load-config.js';
import { Request } from '../../src/http/request.js';
import { createLogger } from '../../src/logging/create-logger.js';
import { useTemporaryDir } from '../helpers/temporary-dir.js';

describe('examples/cors.ts, as docs/routing.md shows it', () => {
  const projectDir = useTemporaryDir('keel-cors-');

  async function send(method: string, headers: Record<string, string>, options: Partial<CorsOptions> = {}) {
    const config = loadConfig({ cwd: projectDir(), env: { APP_ENV: 'prod' } });
    const logger = createLogger({ env: config.env, debug: config.debug, stderr: false, destination: { write: () => undefined } });
    const app = createApp({ config, logger, routes, subscribers: [new CorsListener({ origins: ['https://app.example.test'], ...options })] });
    try {
      return await app.handle(new Request({ method, target: '/api/books', headers: { host: 'api.example.test', ...headers } }));
    } finally {
      await app.close();
    }
  }

  it('answers an allowed origin\'s preflight with 204 and its permissions, where the route alone answers 405', async () => {
    const preflight = await send('OPTIONS', { origin: 'https://app.example.test', 'access-control-request-method': 'POST' });
    assert.equal(preflight.status, 204);
    assert.equal(preflight.headers.get('access-control-allow-origin'), 'https://app.example.test');
    assert.equal(preflight.headers.get('access-control-allow-methods'), 'GET, POST, PUT, PATCH, DELETE');
    assert.deepEqual(preflight.headers.all('vary'), ['Origin']);
    assert.equal((await send('OPTIONS', {})).status, 405);
  });

  it('grants nothing to another origin, and lets an allowed one read the real answer', async () => {
    const other = await send('OPTIONS', { origin: 'https://evil.example', 'access-control-request-method': 'POST' });
    assert.equal(other.status, 204);
    assert.equal(other.headers.has('access-control-allow-origin'), false);
    const books = await send('GET', { origin: 'https://app.example.test' });
    assert.equal(books.status, 200);
    assert.equal(books.headers.get('access-control-allow-origin'), 'https://app.example.test');
    assert.match(books.headers.all('vary').join(', '), /Origin/);
    // Its page may read where a created resource is and when to try again.
    assert.equal(books.headers.get('access-control-expose-headers'), 'Location, Retry-After, RateLimit, RateLimit-Policy');
    assert.equal(books.headers.has('access-control-allow-credentials'), false);
  });

  it('lets credentials through when asked, in the preflight and the answer', async () => {
    const preflight = await send('OPTIONS', { origin: 'https://app.example.test', 'access-control-request-method': 'POST' }, { credentials: true });
    assert.equal(preflight.headers.get('access-control-allow-credentials'), 'true');
    const books = await send('GET', { origin: 'https://app.example.test' }, { credentials: true, exposeHeaders: [] });
    assert.equal(books.headers.get('access-control-allow-credentials'), 'true');
    assert.equal(books.headers.has('access-control-expose-headers'), false);
  });
});
