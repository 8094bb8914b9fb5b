import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { createApp, type App, type AppOptions } from './app.js';
import { loadConfig } from './config/load-config.js';
import { Request } from './http/request.js';
import { Response } from './http/response.js';
import type { ExceptionEvent, ResponseEvent, TerminateEvent } from './kernel/events.js';
import { createLogger } from './logging/create-logger.js';
import { CompositeProfileStore } from './profiler/composite-profile-store.js';
import { createOriginResolver } from './proxy/trusted-proxies.js';
import { UrlGenerator } from './routing/url-generator.js';
import { rawRequest } from '../test/helpers/raw-http.js';
import { useTemporaryDir } from '../test/helpers/temporary-dir.js';

const projectDir = useTemporaryDir('keel-app-');

/** An application of these routes and subscribers in a temporary project, its log lines collected; closed after `use`. */
async function withApp(env: Record<string, string>, options: Pick<AppOptions, 'routes' | 'subscribers'>, use: (app: App, lines: string[]) => Promise<void>): Promise<void> {
  const config = loadConfig({ cwd: projectDir(), env });
  const lines: string[] = [];
  const logger = createLogger({ env: config.env, debug: config.debug, stderr: false, actionLevel: false, destination: { write: (line: string) => void lines.push(line) } });
  const app = createApp({ config, logger, ...options });
  try {
    await use(app, lines);
  } finally {
    await app.close();
  }
}

function get(app: App, path: string): Promise<Response> {
  return app.handle(new Request({ method: 'GET', target: path, headers: { host: 'localhost' } }));
}

describe('App.handle()', () => {
  it('runs the terminate listeners before it answers, as a front controller and a test client do: the record is stored', async () => {
    const terminated: string[] = [];
    const routes = [{ name: 'home', path: '/', methods: ['GET'], controller: () => Response.html('<body>hi</body>') }];
    const subscribers = [{ subscribedEvents: () => [{ event: 'terminate' as const, listener: (event: TerminateEvent) => void terminated.push(event.request.pathInfo) }] }];
    await withApp({ APP_ENV: 'dev', KEEL_PROFILER_STORAGE: 'file' }, { routes, subscribers }, async (app) => {
      const response = await get(app, '/');
      assert.equal(response.status, 200);
      assert.deepEqual(terminated, ['/']);
      // Handed to the durable store at terminate: once written, it is there, not only in the memory in front of it.
      await app.profiler!.flush();
      const token = response.headers.get('x-debug-token')!;
      const store = app.profiler!.store;
      assert.ok(store instanceof CompositeProfileStore);
      assert.equal((await store.back.read(token))?.token, token);
    });
  });

  it('reads the Host header as a server does, one that is no host a 400, and the trusted hosts with the app\'s resolver', async () => {
    const routes = [{ name: 'home', path: '/', methods: ['GET'], controller: () => Response.text('hi') }];
    await withApp({ APP_ENV: 'prod', TRUSTED_HOSTS: '^a\\.test$' }, { routes }, async (app) => {
      const status = async (host: string, resolveOrigin?: ReturnType<typeof createOriginResolver>) => (await app.handle(new Request({ method: 'GET', target: '/', headers: { host }, resolveOrigin }))).status;
      for (const host of ['a b', 'evil.test/x?', 'a.test:abc']) assert.equal(await status(host), 400, host);
      assert.equal(await status('a.test:8080'), 200);
      const resolver = createOriginResolver(app.config);
      assert.equal(await status('evil.test', resolver), 400);
      assert.equal(await status('a.test', resolver), 200);
    });
  });
});

describe('App.listen()', () => {
  it('keeps the configured address for an option given as undefined (a command-line flag left out)', async () => {
    await withApp({ APP_ENV: 'prod', HOST: '127.0.0.2', PORT: '0' }, { routes: [] }, async (app) => {
      const flags: { host?: string } = {};
      const server = await app.listen({ host: flags.host });
      assert.equal(server.host, '127.0.0.2');
    });
  });

  it('is closed by a close() that comes while the server is still starting, instead of keeping the process alive', async () => {
    await withApp({ APP_ENV: 'prod' }, { routes: [] }, async (app) => {
      const starting = app.listen({ port: 0, host: '127.0.0.1' });
      await app.close();
      assert.equal((await starting).server.listening, false);
    });
  });
});

describe("the profiler's request panel of createApp", () => {
  it('lists the variables of the project\'s .env files under "Defined in .env", masked, and not under the configuration', async () => {
    writeFileSync(join(projectDir(), '.env'), 'TRUSTED_PROXIES=loopback\nAPP_SECRET=dotenv-secret-value\n');
    await withApp({ APP_ENV: 'dev', KEEL_PROFILER_STORAGE: 'memory' }, { routes: [] }, async (app) => {
      const token = (await get(app, '/missing')).headers.get('x-debug-token')!;
      const panel = String((await get(app, `/_profiler/${token}?panel=request`)).body);
      assert.match(panel, /<h4>Defined in \.env<\/h4><table><tbody><tr><th><span>APP_SECRET<\/span><\/th><td>\*{6}<\/td><\/tr><tr><th><span>TRUSTED_PROXIES<\/span><\/th><td>loopback<\/td><\/tr><\/tbody><\/table><h4>Defined as regular env variables<\/h4>/);
      assert.doesNotMatch(panel, /dotenv-secret-value/);
      const configuration = String((await get(app, `/_profiler/${token}?panel=config`)).body);
      assert.match(configuration, /trustedProxies/);
      assert.doesNotMatch(configuration, /dotenvVars|dotenv-secret-value/);
    });
  });
});

describe('the debug page of createApp', () => {
  it("links frames of the project's files to the profiler's source view with the profiler on, and not without it", async () => {
    for (const [profiler, linked] of [['1', true], ['0', false]] as const) {
      // keel's own sources are the project here, so that the router's frame is one of its files.
      const config = { ...loadConfig({ cwd: projectDir(), env: { APP_ENV: 'dev', KEEL_PROFILER: profiler, KEEL_PROFILER_STORAGE: 'memory' } }), projectDir: process.cwd() };
      const logger = createLogger({ env: config.env, debug: config.debug, stderr: false, actionLevel: false, destination: { write: () => undefined } });
      const app = createApp({ config, logger, routes: [] });
      try {
        const body = String((await get(app, '/missing')).body);
        assert.equal(/<span class="trace-file-path">in <a href="\/_profiler\/open\?file=src%2Frouting%2Frouter-listener\.ts&amp;line=\d+#line\d+">/.test(body), linked, `profiler ${profiler}`);
      } finally {
        await app.close();
      }
    }
  });

  it('links frames to the editor named by KEEL_EDITOR, with the profiler off too', async () => {
    const config = loadConfig({ cwd: projectDir(), env: { APP_ENV: 'dev', KEEL_PROFILER: '0', KEEL_EDITOR: 'vscode' } });
    const logger = createLogger({ env: config.env, debug: config.debug, stderr: false, actionLevel: false, destination: { write: () => undefined } });
    const app = createApp({ config, logger, routes: [] });
    try {
      const body = String((await get(app, '/missing')).body);
      assert.match(body, /<span class="trace-file-path">in <a href="vscode:\/\/file\/[^"]*\/src\/routing\/router-listener\.ts:\d+">/);
    } finally {
      await app.close();
    }
  });
});

describe('controllers created by createApp', () => {
  it('get typed route parameters and the application: its kernel for sub-requests, its routes for URLs', async () => {
    const routes: AppOptions['routes'] = [
      // The parameters the route gives, declared without a cast.
      { name: 'book', path: '/books/{id<\\d+>}', methods: ['GET'], controller: (_request: Request, { id }: { id: string }) => Response.json({ id }) },
      {
        name: 'shelf',
        path: '/shelf',
        methods: ['GET'],
        controller: async (request, _params, app) => {
          const sub = request.duplicate({ attributes: { controller: app.routes.get('book')!.controller, routeParams: { id: '7' } } });
          const book = await app.kernel.handle(sub, { type: 'sub' });
          return Response.json({ url: new UrlGenerator(app.routes).generate('book', { id: 7 }, { request }), book: JSON.parse(String(book.body)) });
        },
      },
    ];
    await withApp({ APP_ENV: 'prod' }, { routes }, async (app) => {
      const response = await get(app, '/shelf');
      assert.equal(response.status, 200);
      assert.deepEqual(JSON.parse(String(response.body)), { url: '/books/7', book: { id: '7' } });
    });
  });

  it('fail in the controller on an invalid header name, with the debug page naming the problem, not as a bare 500 where node writes', async () => {
    const routes = [{ name: 'bad', path: '/bad', controller: () => new Response('x', 200, [['X Bad', '1']]) }];
    await withApp({ APP_ENV: 'dev', KEEL_PROFILER: '0' }, { routes }, async (app) => {
      const response = await get(app, '/bad');
      assert.equal(response.status, 500);
      assert.match(String(response.body), /Invalid header name &quot;X Bad&quot;|Invalid header name "X Bad"/);
    });
  });
});

describe('a thrown value that fails when read', () => {
  it('is reported all the same, its 500 answered and logged, in prod and in dev: a Proxy whose traps throw, getters that throw', async () => {
    const thrower = () => {
      throw new Error('read');
    };
    const values: Record<string, () => unknown> = {
      proxy: () => new Proxy({}, { getPrototypeOf: thrower }),
      constructor: () => Object.defineProperty({}, 'constructor', { get: thrower }),
      cause: () => Object.defineProperty(new Error('the original'), 'cause', { get: thrower }),
      message: () => Object.defineProperty(new Error('x'), 'message', { get: thrower }),
    };
    const routes = Object.entries(values).map(([name, make]) => ({ name, path: `/${name}`, methods: ['GET'], controller: (): never => { throw make(); } }));
    for (const env of ['prod', 'dev']) {
      await withApp({ APP_ENV: env, KEEL_PROFILER: '0' }, { routes }, async (app, lines) => {
        for (const name of Object.keys(values)) {
          for (const accept of ['application/json', 'text/html']) {
            const response = await app.handle(new Request({ method: 'GET', target: `/${name}`, headers: { host: 'app.example.test', accept } }));
            assert.equal(response.status, 500, `${env} ${name} ${accept}`);
            assert.ok(String(response.headers.get('content-type')).startsWith(accept), `${env} ${name} ${accept}`);
          }
        }
        await app.logger.flush();
        assert.equal(lines.filter((line) => line.includes('Uncaught PHP Exception')).length, 8, lines.join('\n'));
      });
    }
  });
});

describe('a failure the error pipeline cannot answer', () => {
  const subscribers = [{ subscribedEvents: () => [{ event: 'response' as const, listener: () => { throw new TypeError('the response listener is broken'); }, name: 'BrokenListener' }] }];
  const routes = [{ name: 'home', path: '/', controller: () => new Response('home') }];

  it('is answered in debug with the exception page of what failed, as Symfony\'s ErrorHandler renders it', async () => {
    await withApp({ APP_ENV: 'dev', KEEL_PROFILER: '0' }, { routes, subscribers }, async (app) => {
      const server = await app.listen({ port: 0, host: '127.0.0.1' });
      const response = await rawRequest(server.port, { path: '/', headers: { accept: 'text/html' } });
      assert.equal(response.status, 500);
      assert.match(response.header('content-type') ?? '', /^text\/html/);
      assert.match(response.body, /the response listener is broken/);
      assert.match(response.header('x-debug-exception') ?? '', /the%20response%20listener%20is%20broken/);
    });
  });

  it('stays the plain text 500 in prod, which shows nothing of it', async () => {
    await withApp({ APP_ENV: 'prod' }, { routes, subscribers }, async (app) => {
      const server = await app.listen({ port: 0, host: '127.0.0.1' });
      const response = await rawRequest(server.port, { path: '/' });
      assert.deepEqual([response.status, response.header('content-type'), response.body], [500, 'text/plain; charset=UTF-8', 'Internal Server Error\n']);
    });
  });
});

describe('an application exception listener between the log line and the error page', () => {
  it('runs the application\'s listeners before its own at equal priority: a header set at 0 comes before Content-Type, as in the reference', async () => {
    // The reference application's CspListener (response, priority 0), as recorded with it.
    const csp = {
      subscribedEvents: () => [
        {
          event: 'response' as const,
          listener: ({ response }: ResponseEvent) => {
            response.setHeader('Content-Security-Policy', "default-src 'self'");
            response.setHeader('Content-Security-Policy-Report-Only', "default-src 'none'");
            response.setHeader('X-Content-Security-Policy', "default-src 'self'");
          },
        },
      ],
    };
    const routes = [{ name: 'home', path: '/', controller: () => new Response('home\n') }];
    await withApp({ APP_ENV: 'dev', KEEL_TOOLBAR: '0' }, { routes, subscribers: [csp] }, async (app) => {
      const names = [...(await get(app, '/')).headers].map(([name]) => name);
      assert.deepEqual(names.slice(0, 6), ['Cache-Control', 'Date', 'Content-Security-Policy', 'Content-Security-Policy-Report-Only', 'X-Content-Security-Policy', 'Content-Type']);
    });
  });

  it('answers the error itself at -64, and the error is still logged, as the errors guide says', async () => {
    const ownFormat = {
      subscribedEvents: () => [
        { event: 'exception' as const, priority: -64, listener: (event: ExceptionEvent) => event.setResponse(Response.json({ error: 'conflict' }, 409)) },
      ],
    };
    const routes = [{ name: 'fail', path: '/fail', controller: () => { throw new Error('taken'); } }];
    await withApp({ APP_ENV: 'prod' }, { routes, subscribers: [ownFormat] }, async (app, lines) => {
      const response = await get(app, '/fail');
      assert.equal(response.status, 409);
      assert.deepEqual(JSON.parse(String(response.body)), { error: 'conflict' });
      assert.ok(lines.some((line) => line.includes('Uncaught PHP Exception Error: \\"taken\\"') || line.includes('Uncaught PHP Exception Error: "taken"')), lines.join('\n'));
    });
  });
});

describe('createApp with names every object has', () => {
  it('keeps a placeholder named __proto__, its value, its default and its requirement, as any other', async () => {
    const params = (request: Request) => new Response(JSON.stringify(request.attributes.routeParams), 200, { 'Content-Type': 'application/json' });
    const routes = [
      { name: 'tag', path: '/tags/{__proto__}', controller: params },
      { name: 'page', path: '/pages/{__proto__<\\d+>?1}', controller: params },
    ];
    await withApp({ APP_ENV: 'prod' }, { routes }, async (app) => {
      assert.equal(String((await get(app, '/tags/news')).body), '{"__proto__":"news"}');
      assert.equal(String((await get(app, '/pages/2')).body), '{"__proto__":"2"}');
      assert.equal(String((await get(app, '/pages')).body), '{"__proto__":"1"}');
      assert.equal((await get(app, '/pages/abc')).status, 404);
    });
  });
});

describe('createApp with an Accept header naming what every object has', () => {
  it('reads constructor and __proto__ as media types naming no format, as any unknown one', async () => {
    await withApp({ APP_ENV: 'prod' }, { routes: [] }, async (app) => {
      for (const accept of ['constructor, application/json;q=0', '__proto__;q=0.5, application/json;q=0']) {
        const response = await app.handle(new Request({ method: 'GET', target: '/missing', headers: { host: 'localhost', accept } }));
        assert.equal(response.status, 404);
        assert.equal(response.headers.get('content-type'), 'application/json', accept);
      }
    });
  });
});

describe('createApp with response headers named as what every object has', () => {
  // An upstream's headers passed on: fetch() gives their names in lower case, constructor and __proto__ as sent.
  it('sends them as any other header from Response.json(), html(), text() and redirect()', async () => {
    const upstream = () => new Headers([['constructor', 'upstream'], ['__proto__', 'p']]);
    const routes = [
      { name: 'json', path: '/json', controller: () => Response.json({ ok: true }, 200, upstream()) },
      { name: 'html', path: '/html', controller: () => Response.html('<p>ok</p>', 200, upstream()) },
      { name: 'text', path: '/text', controller: () => Response.text('ok', 200, upstream()) },
      { name: 'redirect', path: '/redirect', controller: () => Response.redirect('/text', 302, upstream()) },
    ];
    await withApp({ APP_ENV: 'prod' }, { routes }, async (app) => {
      for (const path of ['/json', '/html', '/text', '/redirect']) {
        const response = await get(app, path);
        assert.equal(response.status, path === '/redirect' ? 302 : 200, path);
        assert.deepEqual([response.headers.all('constructor'), response.headers.all('__proto__')], [['upstream'], ['p']], path);
      }
    });
  });
});
