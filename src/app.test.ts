import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { createApp } from './app.js';
import { loadConfig } from './config/load-config.js';
import { Request } from './http/request.js';
import { Response } from './http/response.js';
import type { ExceptionEvent, TerminateEvent } from './kernel/events.js';
import { createLogger } from './logging/create-logger.js';
import { CompositeProfileStore } from './profiler/composite-profile-store.js';
import { UrlGenerator } from './routing/url-generator.js';
import { useTemporaryDir } from '../test/helpers/temporary-dir.js';

describe('App.handle()', () => {
  const projectDir = useTemporaryDir('keel-app-handle-');

  it('runs the terminate listeners before it answers, as a front controller and a test client do: the record is stored', async () => {
    const config = loadConfig({ cwd: projectDir(), env: { APP_ENV: 'dev', KEEL_PROFILER_STORAGE: 'file' } });
    const logger = createLogger({ env: config.env, debug: config.debug, stderr: false, destination: { write: () => undefined } });
    const terminated: string[] = [];
    const app = createApp({
      config,
      logger,
      routes: [{ name: 'home', path: '/', methods: ['GET'], controller: () => Response.html('<body>hi</body>') }],
      subscribers: [{ subscribedEvents: () => [{ event: 'terminate', listener: (event: TerminateEvent) => void terminated.push(event.request.pathInfo) }] }],
    });
    try {
      const response = await app.handle(new Request({ method: 'GET', target: '/', headers: { host: 'localhost' } }));
      assert.equal(response.status, 200);
      assert.deepEqual(terminated, ['/']);
      // Handed to the durable store at terminate: once written, it is there, not only in the memory in front of it.
      await app.profiler!.flush();
      const token = response.headers.get('x-debug-token')!;
      const store = app.profiler!.store;
      assert.ok(store instanceof CompositeProfileStore);
      assert.equal((await store.back.read(token))?.token, token);
    } finally {
      await app.close();
    }
  });
});

describe('controllers created by createApp', () => {
  const projectDir = useTemporaryDir('keel-app-controllers-');

  it('get typed route parameters and the application: its kernel for sub-requests, its routes for URLs', async () => {
    const config = loadConfig({ cwd: projectDir(), env: { APP_ENV: 'prod' } });
    const logger = createLogger({ env: config.env, debug: config.debug, stderr: false, destination: { write: () => undefined } });
    const app = createApp({
      config,
      logger,
      routes: [
        // The parameters the route gives, declared without a cast.
        { name: 'book', path: '/books/{id<\\d+>}', methods: ['GET'], controller: (_request: Request, { id }: { id: string }) => Response.json({ id }) },
        {
          name: 'shelf',
          path: '/shelf',
          methods: ['GET'],
          controller: async (request, _params, app) => {
            const sub = request.duplicate({ attributes: { controller: app.routes.get('book')!.controller, routeParams: { id: '7' } } });
            const book = await app.kernel.handle(sub, { type: 'sub' });
            return Response.json({ url: new UrlGenerator(app.routes).generate('book', { id: 7 }), book: JSON.parse(String(book.body)) });
          },
        },
      ],
    });
    try {
      const response = await app.handle(new Request({ method: 'GET', target: '/shelf', headers: { host: 'localhost' } }));
      assert.equal(response.status, 200);
      assert.deepEqual(JSON.parse(String(response.body)), { url: '/books/7', book: { id: '7' } });
    } finally {
      await app.close();
    }
  });
});

describe('a controller that sets an invalid header name', () => {
  const projectDir = useTemporaryDir('keel-app-header-name-');

  it('fails in the controller, with the debug page naming the problem, not as a bare 500 where node writes', async () => {
    const config = loadConfig({ cwd: projectDir(), env: { APP_ENV: 'dev', KEEL_PROFILER: '0' } });
    const logger = createLogger({ env: config.env, debug: config.debug, stderr: false, destination: { write: () => undefined } });
    const app = createApp({ config, logger, routes: [{ name: 'bad', path: '/bad', controller: () => new Response('x', 200, [['X Bad', '1']]) }] });
    try {
      const response = await app.handle(new Request({ method: 'GET', target: '/bad', headers: { host: 'localhost' } }));
      assert.equal(response.status, 500);
      assert.match(String(response.body), /Invalid header name &quot;X Bad&quot;|Invalid header name "X Bad"/);
    } finally {
      await app.close();
    }
  });
});

describe('an application exception listener between the log line and the error page', () => {
  const projectDir = useTemporaryDir('keel-app-exception-listener-');

  it('answers the error itself at -64, and the error is still logged, as the errors guide says', async () => {
    const config = loadConfig({ cwd: projectDir(), env: { APP_ENV: 'prod' } });
    const lines: string[] = [];
    const logger = createLogger({ env: config.env, debug: config.debug, stderr: false, actionLevel: false, destination: { write: (line: string) => void lines.push(line) } });
    const ownFormat = {
      subscribedEvents: () => [
        { event: 'exception' as const, priority: -64, listener: (event: ExceptionEvent) => event.setResponse(Response.json({ error: 'conflict' }, 409)) },
      ],
    };
    const app = createApp({ config, logger, subscribers: [ownFormat], routes: [{ name: 'fail', path: '/fail', controller: () => { throw new Error('taken'); } }] });
    try {
      const response = await app.handle(new Request({ method: 'GET', target: '/fail', headers: { host: 'localhost' } }));
      assert.equal(response.status, 409);
      assert.deepEqual(JSON.parse(String(response.body)), { error: 'conflict' });
      assert.ok(lines.some((line) => line.includes('Uncaught PHP Exception Error: \\"taken\\"') || line.includes('Uncaught PHP Exception Error: "taken"')), lines.join('\n'));
    } finally {
      await app.close();
    }
  });
});
