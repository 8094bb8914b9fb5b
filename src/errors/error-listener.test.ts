import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { HttpException, MethodNotAllowedHttpException, NotFoundHttpException } from '../http/http-exception.js';
import { type Controller, Request } from '../http/request.js';
import { Response } from '../http/response.js';
import { Kernel } from '../kernel/kernel.js';
import { createLogger } from '../logging/create-logger.js';
import { RecordingLogger } from '../logging/recording-logger.js';
import { createErrorController } from './error-controller.js';
import { ErrorListener } from './error-listener.js';
import { createFlatError } from './flat-error.js';
import { ErrorRenderer } from './renderers/error-renderer.js';


interface Setup {
  debug?: boolean;
  skipLogStatuses?: number[];
  /** What the request listener throws for the main request (a router would throw the 404). */
  fail: () => unknown;
  controller?: Controller;
}

function setUp({ debug = true, skipLogStatuses, fail, controller }: Setup) {
  const logger = new RecordingLogger();
  const kernel = new Kernel();
  const handled: Request[] = [];
  kernel.dispatcher.on('request', (event) => {
    handled.push(event.request);
    if (event.request.attributes.controller === undefined) throw fail();
  }, 32);
  kernel.dispatcher.addSubscriber(
    new ErrorListener({ logger, debug, skipLogStatuses, controller: controller ?? createErrorController(new ErrorRenderer({ debug })) }),
  );
  return { kernel, logger, handled };
}

function get(target = '/robots.txt', method = 'GET', headers: Record<string, string> = {}): Request {
  return new Request({ method, target, headers: { host: 'localhost', ...headers } });
}

describe('ErrorListener', () => {
  describe('logging', () => {
    it('logs a 4xx HttpException at ERROR on the request channel, with the file basename and line', async () => {
      let thrown: unknown;
      const { kernel, logger } = setUp({ fail: () => (thrown = new NotFoundHttpException('No route found for "GET http://localhost/robots.txt"')) });
      const request = get();
      await kernel.handle(request);
      const { line } = createFlatError(thrown);
      assert.equal(logger.records.length, 1);
      const [record] = logger.records;
      assert.equal(record!.level, 'error');
      assert.equal(record!.channel, 'request');
      assert.equal(record!.message, `Uncaught PHP Exception NotFoundHttpException: "No route found for "GET http://localhost/robots.txt"" at error-listener.test.ts line ${line}`);
      assert.equal(record!.context.exception, thrown);
      assert.equal(record!.request, request);
    });

    it('logs a 5xx HttpException and any other error at CRITICAL', async () => {
      for (const fail of [() => new HttpException(503, { message: 'down' }), () => new TypeError('oops')]) {
        const { kernel, logger } = setUp({ fail });
        await kernel.handle(get());
        assert.equal(logger.records[0]!.level, 'critical');
      }
    });

    // The message holds the URL: filled a second time by the logger, a client's `/{exception}` became the
    // error's text (Symfony's PsrLogMessageProcessor does that to it).
    it("writes the message as made, a client's placeholder in the URL left as it came", async () => {
      const lines: string[] = [];
      const logger = createLogger({ env: 'dev', debug: true, destination: { write: (line: string) => void lines.push(line) }, now: () => 0 });
      const kernel = new Kernel();
      kernel.dispatcher.on('request', (event) => {
        if (event.request.attributes.controller === undefined) throw new NotFoundHttpException('No route found for "GET http://localhost/{exception}{message}"');
      }, 32);
      kernel.dispatcher.addSubscriber(new ErrorListener({ logger: logger.channel('request'), debug: true, controller: createErrorController(new ErrorRenderer({ debug: true })) }));
      await kernel.handle(get('/{exception}{message}'));
      assert.match(lines[0]!, /request\.ERROR: Uncaught PHP Exception NotFoundHttpException: "No route found for "GET http:\/\/localhost\/\{exception\}\{message\}"" at /);
    });

    it('logs a thrown string as an Error of unknown origin', async () => {
      const { kernel, logger } = setUp({ fail: () => 'plain' });
      const response = await kernel.handle(get());
      assert.equal(response.status, 500);
      assert.equal(logger.records[0]!.message, 'Uncaught PHP Exception Error: "plain" at  line 0');
    });

    it('logs and renders a thrown Proxy whose get trap throws, instead of failing with it', async () => {
      const { kernel, logger } = setUp({ fail: () => new Proxy({}, { get: () => { throw new Error('trap'); } }) });
      const response = await kernel.handle(get());
      assert.equal(response.status, 500);
      assert.equal(logger.records[0]!.message, 'Uncaught PHP Exception Object: "[object Object]" at  line 0');
    });

    // Cut short by no fault of the application: at NOTICE, written at once, and still answered.
    for (const [cause, status, code, line] of [
      ['the server stopping', 503, 'KEEL_ERR_SERVER_STOPPING', 'request cut off by the server stopping before its body had all arrived'],
      ['its client going away', 400, 'KEEL_ERR_CLIENT_GONE', 'request cut off by its client closing the connection before its body had all arrived'],
    ] as const) {
      it(`logs a body cut off by ${cause} at NOTICE, not as an uncaught exception, and still answers ${status}`, async () => {
        const { kernel, logger } = setUp({ debug: false, fail: () => new HttpException(status, { code, message: 'cut off' }) });
        const response = await kernel.handle(get('/upload', 'POST'));
        assert.equal(response.status, status);
        assert.deepEqual(
          logger.records.map(({ level, channel, message, context, request }) => ({ level, channel, message, context, request })),
          [{ level: 'notice', channel: 'request', message: line, context: { code, method: 'POST', request_uri: '/upload' }, request: undefined }],
        );
      });
    }

    it("logs an application's error whose code is an object member's name as any uncaught error", async () => {
      const { kernel, logger } = setUp({ debug: false, fail: () => new HttpException(400, { code: 'constructor', message: 'mine' }) });
      await kernel.handle(get('/upload', 'POST'));
      assert.deepEqual(logger.records.map(({ level }) => level), ['error']);
    });

    it('skips the statuses it is told to skip', async () => {
      const { kernel, logger } = setUp({ debug: false, skipLogStatuses: [404, 405], fail: () => new NotFoundHttpException('x') });
      await kernel.handle(get());
      assert.deepEqual(logger.records, []);
    });
  });

  describe('rendering through a sub-request', () => {
    it('handles a GET sub-request of the failed request, carrying the error', async () => {
      let thrown: unknown;
      const { kernel, handled } = setUp({ fail: () => (thrown = new NotFoundHttpException('x')) });
      const request = get('/robots.txt?a=1', 'POST');
      await kernel.handle(request);
      assert.equal(handled.length, 2);
      const sub = handled[1]!;
      assert.equal(sub.type, 'sub');
      assert.equal(sub.method, 'GET');
      assert.equal(sub.parent, request);
      assert.equal(sub.attributes.exception, thrown);
      assert.equal(sub.attributes.controllerName, 'ErrorController');
      assert.equal(sub.queryString, 'a=1');
    });

    it('answers with the rendered page and the reference header order', async () => {
      const { kernel } = setUp({ fail: () => new NotFoundHttpException('No route found for "GET http://localhost/robots.txt"') });
      const response = await kernel.handle(get('/robots.txt', 'GET', { accept: 'text/html' }));
      assert.equal(response.status, 404);
      assert.deepEqual([...response.headers].map(([name]) => name), ['Content-Type', 'X-Debug-Exception', 'X-Debug-Exception-File', 'Vary', 'Cache-Control', 'Date']);
      assert.equal(response.headers.get('cache-control'), 'no-cache, private');
      assert.ok(String(response.body).startsWith('<!-- No route found for &quot;GET http://localhost/robots.txt&quot; (404 Not Found) -->\n<!DOCTYPE html>'));
    });

    it("renders in the failed request's format (a route's _format), whatever Accept says", async () => {
      const { kernel } = setUp({ fail: () => new NotFoundHttpException('Book 3 does not exist.') });
      for (const [format, type] of [['json', 'application/json'], ['xml', 'text/xml; charset=UTF-8'], ['yaml', 'yaml']]) {
        const request = get('/books/3', 'GET', { accept: 'text/html' });
        request.attributes.format = format;
        const response = await kernel.handle(request);
        assert.equal(response.headers.get('content-type'), type, format);
      }
    });

    it('answers a 405 with Allow before Vary, in JSON when asked', async () => {
      const { kernel } = setUp({ fail: () => new MethodNotAllowedHttpException(['POST'], 'nope') });
      const response = await kernel.handle(get('/login', 'GET', { accept: 'application/json' }));
      assert.equal(response.status, 405);
      assert.deepEqual([...response.headers].map(([name]) => name), ['Vary', 'X-Debug-Exception', 'X-Debug-Exception-File', 'Allow', 'Content-Type', 'Cache-Control', 'Date']);
      assert.equal(JSON.parse(String(response.body)).detail, 'nope');
    });

    // As Symfony's listener: the failure is rethrown, the original error set as the cause of its last error.
    it('logs the failure of the error controller at CRITICAL and rethrows it, the original error as its last cause', async () => {
      const original = new NotFoundHttpException('x');
      const broke = new Error('renderer broke', { cause: new TypeError('deeper') });
      const { kernel, logger } = setUp({
        fail: () => original,
        controller: () => {
          throw broke;
        },
      });
      await assert.rejects(kernel.handle(get()), (error) => error === broke);
      assert.equal((broke.cause as Error).cause, original);
      const last = logger.records.at(-1)!;
      assert.equal(last.level, 'critical');
      assert.match(last.message, /^Exception thrown when handling an exception \(Error: renderer broke at \/.*error-listener\.test\.ts line \d+\)$/);
    });

    it('rethrows a failure that already holds the original error, or cannot take it, as it is', async () => {
      const original = new NotFoundHttpException('x');
      const wrapping = new Error('wrapped', { cause: original });
      const frozen = Object.freeze(new Error('frozen'));
      for (const failure of [wrapping, frozen, 'a string']) {
        const { kernel } = setUp({ fail: () => original, controller: () => { throw failure; } });
        await assert.rejects(kernel.handle(get()), (error) => error === failure);
      }
      assert.equal(wrapping.cause, original);
      assert.equal(frozen.cause, undefined);
    });

    // Symfony's logException() picks the level from the failure as for any error: a client error is no crash.
    it('logs a client error of the error controller at ERROR', async () => {
      const { kernel, logger } = setUp({
        fail: () => new NotFoundHttpException('x'),
        controller: () => {
          throw new HttpException(401, { message: 'denied' });
        },
      });
      await assert.rejects(kernel.handle(get()));
      const last = logger.records.at(-1)!;
      assert.equal(last.level, 'error');
      assert.match(last.message, /^Exception thrown when handling an exception \(HttpException: denied at /);
    });
  });

  describe('Content-Security-Policy', () => {
    function withCsp(debug: boolean) {
      const setup = setUp({ debug, fail: () => new NotFoundHttpException('x') });
      setup.kernel.dispatcher.on('response', (event) => {
        event.response.setHeader('Content-Security-Policy', "default-src 'self'");
        event.response.setHeader('Content-Security-Policy-Report-Only', "default-src 'self'");
      });
      return setup;
    }

    it('removes only Content-Security-Policy from a rendered error in debug', async () => {
      const request = get();
      const response = await withCsp(true).kernel.handle(request);
      assert.equal(request.attributes.removeCspHeaders, true);
      assert.equal(response.headers.has('content-security-policy'), false);
      assert.equal(response.headers.has('content-security-policy-report-only'), true);
    });

    it('keeps it without debug', async () => {
      const request = get();
      const response = await withCsp(false).kernel.handle(request);
      assert.equal(request.attributes.removeCspHeaders, undefined);
      assert.equal(response.headers.get('content-security-policy'), "default-src 'self'");
    });

    it('leaves responses that are not errors alone', async () => {
      const { kernel } = withCsp(true);
      kernel.dispatcher.on('request', (event) => event.setResponse(new Response('ok')), 64);
      const response = await kernel.handle(get());
      assert.equal(response.headers.get('content-security-policy'), "default-src 'self'");
    });
  });
});
