import { readFileSync } from 'node:fs';
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { BadRequestHttpException, MethodNotAllowedHttpException, NotFoundHttpException } from '../http/http-exception.js';
import { Request } from '../http/request.js';
import { SuspiciousOperationException } from '../http/request-exceptions.js';
import { Response } from '../http/response.js';
import { Kernel } from '../kernel/kernel.js';
import { RecordingLogger } from '../logging/recording-logger.js';
import { ORACLE_ROUTES } from './matcher.contract.js';
import { Matcher } from './matcher.js';
import { RouteCollection } from './route-collection.js';
import { RouterListener } from './router-listener.js';
import { MethodNotAllowedException, ResourceNotFoundException } from './routing-errors.js';

// The 1-based line of the first occurrence of `text` in a file of this folder.
function sourceLine(file: string, text: string): number {
  return readFileSync(new URL(file, import.meta.url), 'utf8').split('\n').findIndex((line) => line.includes(text)) + 1;
}

function setup({ traceMisses }: { traceMisses?: boolean } = {}) {
  const home = (): Response => Response.text('home');
  const routes = new RouteCollection().addAll(
    ORACLE_ROUTES.map((route) => (route.name === 'home' ? { ...route, controller: home } : { ...route, controller: () => Response.text(route.name) })),
  );
  routes.add({ name: 'private', path: '/private', stateless: true, controller: () => Response.text('private') });
  routes.add({ name: 'secure', path: '/secure', schemes: ['https'], controller: () => Response.text('secure') });
  const logger = new RecordingLogger();
  const kernel = new Kernel();
  kernel.dispatcher.addSubscriber(new RouterListener({ matcher: new Matcher(routes), logger, traceMisses }));
  return { kernel, logger };
}

function httpsRequest(method: string, target: string, headers: Record<string, string> = {}): Request {
  return new Request({ method, target, headers: { host: 'app.example.test', ...headers }, encrypted: true });
}

async function failure(kernel: Kernel, request: Request): Promise<unknown> {
  try {
    await kernel.handle(request, { catch: false });
  } catch (error) {
    return error;
  }
  assert.fail('expected the request to fail');
}

describe('RouterListener', () => {
  describe('when a route matches', () => {
    it('fills the request attributes and calls the controller', async () => {
      const { kernel } = setup();
      const request = httpsRequest('GET', '/');
      const response = await kernel.handle(request);
      assert.equal(response.body, 'home');
      assert.equal(request.attributes.route, 'home');
      assert.deepEqual(request.attributes.routeParams, {});
      assert.equal(request.attributes.controllerName, 'home');
      assert.equal(request.attributes.stateless, false);
      assert.deepEqual(request.attributes.routing?.context, { method: 'GET', path: '/', host: 'app.example.test', scheme: 'https' });
      assert.equal(request.attributes.routing?.route?.name, 'home');
    });

    it('logs the matched route at INFO on the request channel, with the request', async () => {
      const { kernel, logger } = setup();
      const request = httpsRequest('GET', '/?utm=1');
      await kernel.handle(request);
      assert.deepEqual(logger.records, [
        {
          channel: 'request',
          level: 'info',
          message: 'Matched route "home".',
          context: { route: 'home', route_parameters: { _route: 'home', _controller: 'home' }, request_uri: 'https://app.example.test/?utm=1', method: 'GET' },
          request,
        },
      ]);
    });

    it('makes a route\'s _format the request\'s format, from its default or its placeholder', async () => {
      const routes = new RouteCollection().addAll([
        { name: 'feed', path: '/feed', defaults: { _format: 'xml' }, controller: () => Response.text('feed') },
        { name: 'item', path: '/item/{id}.{_format}', controller: () => Response.text('item') },
      ]);
      const kernel = new Kernel();
      kernel.dispatcher.addSubscriber(new RouterListener({ matcher: new Matcher(routes), logger: new RecordingLogger() }));
      const feed = httpsRequest('GET', '/feed');
      await kernel.handle(feed);
      assert.equal(feed.attributes.format, 'xml');
      const item = httpsRequest('GET', '/item/3.json');
      await kernel.handle(item);
      assert.equal(item.attributes.format, 'json');
    });

    it('logs a trailing-slash redirect with the parameters of the reference\'s redirect controller', async () => {
      const { kernel, logger } = setup();
      const response = await kernel.handle(httpsRequest('GET', '/about/'));
      assert.equal(response.status, 301);
      assert.deepEqual(logger.records[0]?.context.route_parameters, {
        _controller: 'RedirectController::urlRedirectAction',
        path: '/about',
        permanent: true,
        scheme: null,
        httpPort: 80,
        httpsPort: 443,
        _route: 'about',
      });
    });

    it('writes a route name holding braces as it is: the message is interpolated once, by the logger', async () => {
      const routes = new RouteCollection().add({ name: 'odd_{method}', path: '/odd', controller: () => Response.text('odd') });
      const logger = new RecordingLogger();
      const kernel = new Kernel();
      kernel.dispatcher.addSubscriber(new RouterListener({ matcher: new Matcher(routes), logger }));
      await kernel.handle(httpsRequest('GET', '/odd'));
      assert.equal(logger.records[0]?.message, 'Matched route "odd_{method}".');
    });

    it('merges defaults into the route parameters and names anonymous controllers by route', async () => {
      const routes = new RouteCollection().add({ name: 'list', path: '/list/{page?1}', controller: () => Response.text('list') });
      const kernel = new Kernel();
      kernel.dispatcher.addSubscriber(new RouterListener({ matcher: new Matcher(routes), logger: new RecordingLogger() }));
      const request = httpsRequest('GET', '/list');
      await kernel.handle(request);
      assert.deepEqual(request.attributes.routeParams, { page: '1' });
      assert.equal(request.attributes.controllerName, 'list');
    });

    it('marks the request stateless when the route says so', async () => {
      const { kernel } = setup();
      const request = httpsRequest('GET', '/private');
      await kernel.handle(request);
      assert.equal(request.attributes.stateless, true);
    });

    it('leaves a request that already has a controller alone', async () => {
      const { kernel, logger } = setup();
      const request = httpsRequest('GET', '/robots.txt');
      request.attributes.controller = () => Response.text('error page', 404);
      const response = await kernel.handle(request, { type: 'sub' });
      assert.equal(response.body, 'error page');
      assert.equal(request.attributes.route, undefined);
      assert.deepEqual(logger.records, []);
    });
  });

  describe('when no route matches', () => {
    it('throws a 404 naming the method and the absolute URL without the query string', async () => {
      const { kernel } = setup();
      const error = await failure(kernel, httpsRequest('GET', '/robots.txt?x=1'));
      assert.ok(error instanceof NotFoundHttpException);
      assert.equal(error.message, 'No route found for "GET https://app.example.test/robots.txt"');
      // A routing miss has its own code; a controller's "not found" has another.
      assert.equal(error.code, 'KEEL_ERR_ROUTE_NOT_FOUND');
      assert.equal(new NotFoundHttpException('Book 3 does not exist.').code, 'KEEL_ERR_NOT_FOUND');
      assert.ok(error.cause instanceof ResourceNotFoundException);
      assert.equal(error.cause.message, 'No routes found for "/robots.txt/".');
    });

    it('refuses an X-HTTP-Method-Override that is no method name with the reference\'s 400, and routes a valid one', async () => {
      const { kernel } = setup();
      // An empty override too: Symfony falls back to POST only through `_method`, which keel does not read.
      for (const override of ['PA-TCH', 'get1', 'dél', '']) {
        const error = await failure(kernel, httpsRequest('POST', '/robots.txt', { 'x-http-method-override': override }));
        assert.ok(error instanceof BadRequestHttpException, override);
        // The reference's fixed text, which quotes nothing the client sent.
        assert.equal(error.message, 'Invalid HTTP method override.');
        assert.equal(error.code, 'KEEL_ERR_INVALID_METHOD_OVERRIDE');
        assert.ok(error.cause instanceof SuspiciousOperationException);
        assert.equal(error.cause.message, 'Invalid HTTP method override.');
      }
      const patched = await failure(kernel, httpsRequest('POST', '/robots.txt', { 'x-http-method-override': 'patch' }));
      assert.equal((patched as Error).message, 'No route found for "PATCH https://app.example.test/robots.txt"');
    });

    it('appends the raw Referer header', async () => {
      const { kernel } = setup();
      const error = await failure(kernel, httpsRequest('GET', '/robots.txt', { referer: 'https://example.test/<a href="x">' }));
      assert.equal((error as Error).message, 'No route found for "GET https://app.example.test/robots.txt" (from "https://example.test/<a href="x">")');
    });

    it('adds nothing for a Referer PHP reads as false: "0" and the empty string', async () => {
      const { kernel } = setup();
      for (const referer of ['0', '']) {
        assert.equal(((await failure(kernel, httpsRequest('GET', '/robots.txt', { referer }))) as Error).message, 'No route found for "GET https://app.example.test/robots.txt"', referer);
      }
      assert.match(((await failure(kernel, httpsRequest('GET', '/robots.txt', { referer: '00' }))) as Error).message, / \(from "00"\)$/);
    });

    it('keeps the path percent-encoded in the message', async () => {
      const { kernel } = setup();
      assert.equal(((await failure(kernel, httpsRequest('GET', '/%E0%A4%A'))) as Error).message, 'No route found for "GET https://app.example.test/%E0%A4%A"');
      assert.equal(((await failure(kernel, httpsRequest('HEAD', '/caf%C3%A9'))) as Error).message, 'No route found for "HEAD https://app.example.test/caf%C3%A9"');
    });

    it('creates the 404 in the router listener and its cause in the matcher, capturing the frames below them once', async () => {
      const { kernel } = setup();
      const error = (await failure(kernel, httpsRequest('POST', '/blog'))) as Error;
      const cause = error.cause as Error;
      assert.equal(cause.message, 'No routes found for "/blog".');
      const [, first, ...below] = error.stack!.split('\n');
      const [, causeFirst, causeSecond, ...causeBelow] = cause.stack!.split('\n');
      // The 404's first frame is the line that builds it, as if V8 had captured it there.
      assert.match(first!, new RegExp(`router-listener\\.ts:${sourceLine('router-listener.ts', 'new NotFoundHttpException(')}:`));
      assert.match(causeFirst!, /matcher\.ts/);
      assert.equal(causeSecond, first);
      assert.deepEqual(causeBelow, below);
      assert.ok(below.length > 0);
    });

    it('gives the 405 the frames of its cause but the matcher\'s too', async () => {
      const error = (await failure(setup().kernel, httpsRequest('GET', '/login'))) as Error;
      const [, first, ...below] = error.stack!.split('\n');
      assert.match(first!, new RegExp(`router-listener\\.ts:${sourceLine('router-listener.ts', 'new MethodNotAllowedHttpException(')}:`));
      assert.deepEqual((error.cause as Error).stack!.split('\n').slice(3), below);
    });
  });

  describe('when the method is not allowed', () => {
    it('throws a 405 listing the allowed methods, with no Referer suffix', async () => {
      const { kernel } = setup();
      const error = await failure(kernel, httpsRequest('GET', '/login', { referer: 'https://example.test/' }));
      assert.ok(error instanceof MethodNotAllowedHttpException);
      assert.equal(error.message, 'No route found for "GET https://app.example.test/login": Method Not Allowed (Allow: POST)');
      assert.deepEqual(error.allow, ['POST']);
      assert.equal(error.headers.Allow, 'POST');
      assert.ok(error.cause instanceof MethodNotAllowedException);
      assert.match(error.stack?.split('\n')[1] ?? '', /router-listener\.ts/);
    });

    it('lists every method of the path in route order', async () => {
      const { kernel } = setup();
      const error = (await failure(kernel, httpsRequest('GET', '/items/5'))) as MethodNotAllowedHttpException;
      assert.equal(error.message, 'No route found for "GET https://app.example.test/items/5": Method Not Allowed (Allow: PUT, PATCH, DELETE)');
    });
  });

  describe('when the path differs by a trailing slash', () => {
    it('answers 301 to the absolute alternate URL, query string kept', async () => {
      const { kernel, logger } = setup();
      const request = httpsRequest('GET', '/blog?page=2&sort=asc');
      const response = await kernel.handle(request);
      assert.equal(response.status, 301);
      assert.equal(response.headers.get('location'), 'https://app.example.test/blog/?page=2&sort=asc');
      assert.equal(request.attributes.route, 'blog_index');
      assert.equal(request.attributes.controllerName, 'RedirectController');
      assert.deepEqual(request.attributes.routing?.redirect, { path: '/blog/', url: 'https://app.example.test/blog/?page=2&sort=asc' });
      assert.equal(logger.records[0]?.message, 'Matched route "blog_index".');
    });

    // The Location is a header: what a URI cannot hold goes percent-encoded, escapes and sub-delimiters as sent.
    it('keeps the query as sent but for what a URI cannot hold, which it percent-encodes', async () => {
      const { kernel } = setup();
      const response = await kernel.handle(httpsRequest('GET', '/blog?x="><script>\'`a&q=%41b%&t={|}^\\&ok=a+b,c;d'));
      assert.equal(response.headers.get('location'), "https://app.example.test/blog/?x=%22%3E%3Cscript%3E'%60a&q=%41b%25&t=%7B%7C%7D%5E%5C&ok=a+b,c;d");
    });

    it('redirects HEAD too, and to the path without the slash', async () => {
      const { kernel } = setup();
      const response = await kernel.handle(httpsRequest('HEAD', '/about/'));
      assert.equal(response.status, 301);
      assert.equal(response.headers.get('location'), 'https://app.example.test/about');
    });
  });

  describe('when the route requires another scheme', () => {
    it('redirects GET to the same path on that scheme', async () => {
      const { kernel } = setup();
      const request = new Request({ method: 'GET', target: '/secure?a=1', headers: { host: 'app.example.test:8080' } });
      const response = await kernel.handle(request);
      assert.equal(response.status, 301);
      assert.equal(response.headers.get('location'), 'https://app.example.test/secure?a=1');
    });
  });
  describe('stack traces of misses', () => {
    const frames = (error: unknown): number => ((error as Error).stack ?? '').split('\n').filter((line) => line.trimStart().startsWith('at ')).length;

    it('are captured by default, for the debug page', async () => {
      const error = await failure(setup().kernel, httpsRequest('GET', '/robots.txt'));
      assert.ok(frames(error) > 0);
      assert.ok(frames((error as Error).cause) > 0);
    });

    it('are left out with traceMisses off, the errors otherwise the same, and later errors keep theirs', async () => {
      const error = await failure(setup({ traceMisses: false }).kernel, httpsRequest('GET', '/robots.txt'));
      assert.ok(error instanceof NotFoundHttpException);
      assert.equal(error.message, 'No route found for "GET https://app.example.test/robots.txt"');
      // A routing miss has its own code; a controller's "not found" has another.
      assert.equal(error.code, 'KEEL_ERR_ROUTE_NOT_FOUND');
      assert.equal(new NotFoundHttpException('Book 3 does not exist.').code, 'KEEL_ERR_NOT_FOUND');
      assert.ok(error.cause instanceof ResourceNotFoundException);
      assert.equal(frames(error), 0);
      assert.equal(frames(error.cause), 0);
      const denied = await failure(setup({ traceMisses: false }).kernel, httpsRequest('DELETE', '/'));
      assert.ok(denied instanceof MethodNotAllowedHttpException);
      assert.equal(frames(denied), 0);
      assert.ok(frames(new Error('after')) > 0);
    });
  });
});
