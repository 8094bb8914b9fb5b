import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { HttpException, MethodNotAllowedHttpException } from '../http/http-exception.js';
import { Request } from '../http/request.js';
import { Response } from '../http/response.js';
import type { ControllerResolver } from './controller-resolver.js';
import type { RequestEvent } from './events.js';
import { Kernel } from './kernel.js';
import { get, kernelWithController } from './kernel.fixture.js';


describe('Kernel', () => {
  describe('when the controller returns a response', () => {
    it('dispatches request, controller, controllerArguments, response and finishRequest in that order', async () => {
      const kernel = kernelWithController(() => new Response('ok'));
      const seen: string[] = [];
      for (const name of ['request', 'controller', 'controllerArguments', 'view', 'response', 'finishRequest', 'exception'] as const) {
        kernel.dispatcher.on(name, () => void seen.push(name), -1);
      }
      const response = await kernel.handle(get());
      assert.equal(response.body, 'ok');
      assert.deepEqual(seen, ['request', 'controller', 'controllerArguments', 'response', 'finishRequest']);
    });

    it('passes the request and the route parameters to the controller', async () => {
      const kernel = new Kernel();
      kernel.dispatcher.on('request', ({ request }) => {
        request.attributes.routeParams = { id: '42' };
        request.attributes.controller = (req, params) => Response.text(`${(req as Request).pathInfo} ${(params as Record<string, string>).id}`);
      });
      const response = await kernel.handle(get('/items/42'));
      assert.equal(response.body, '/items/42 42');
    });

    it('takes a controller resolver of its own, any object with the two methods', async () => {
      const resolver: ControllerResolver = {
        resolveController: (request) => (request.pathInfo === '/' ? (_request: Request, params: Record<string, string>) => new Response(params.greeting) : undefined),
        resolveArguments: (request) => [request, { greeting: 'hello' }],
      };
      const kernel = new Kernel({ resolver });
      assert.equal((await kernel.handle(get())).body, 'hello');
    });

    it('lets a controller listener replace the controller', async () => {
      const kernel = kernelWithController(() => new Response('original'));
      kernel.dispatcher.on('controller', (event) => {
        event.controller = () => new Response('replaced');
      });
      assert.equal((await kernel.handle(get())).body, 'replaced');
    });
  });

  describe('when a request listener answers early', () => {
    it('skips the controller but still runs the response listeners', async () => {
      const kernel = kernelWithController(() => assert.fail('controller must not run'));
      kernel.dispatcher.on('request', (event) => event.setResponse(new Response('early', 429)), 100);
      kernel.dispatcher.on('response', (event) => void event.response.setHeader('X-Seen', 'yes'));
      const response = await kernel.handle(get());
      assert.equal(response.status, 429);
      assert.equal(response.headers.get('x-seen'), 'yes');
    });
  });

  describe('when the controller returns something else', () => {
    it('turns it into a response through the view event', async () => {
      const kernel = kernelWithController(() => ({ ok: true }));
      kernel.dispatcher.on('view', (event) => event.setResponse(Response.json(event.controllerResult)));
      assert.equal((await kernel.handle(get())).body, '{"ok":true}');
    });

    it('waits for a thenable that is not a native Promise, as await would, and for its rejection', async () => {
      const later = <T,>(settle: (resolve: (value: T) => void, reject: (error: unknown) => void) => void): PromiseLike<T> => ({
        then: (onFulfilled, onRejected) => new Promise<T>((resolve, reject) => setImmediate(() => settle(resolve, reject))).then(onFulfilled, onRejected),
      });
      const kernel = kernelWithController((request) => (request.pathInfo === '/fail' ? later((_resolve, reject) => reject(new HttpException(409))) : later((resolve) => resolve(Response.text('thenable')))));
      // The rejection goes through the exception event, as a rejected Promise's does.
      kernel.dispatcher.on('exception', (event) => event.setResponse(new Response(`caught ${(event.error as HttpException).status}`)));
      assert.equal((await kernel.handle(get())).body, 'thenable');
      assert.equal((await kernel.handle(get('/fail'))).body, 'caught 409');
      const viewed = kernelWithController(() => later((resolve) => resolve({ ok: true })));
      viewed.dispatcher.on('view', (event) => event.setResponse(Response.json(event.controllerResult)));
      assert.equal((await viewed.handle(get())).body, '{"ok":true}');
    });
  });

  describe('when no controller is found', () => {
    it('raises a 404 naming the path', async () => {
      await assert.rejects(new Kernel().handle(get('/nowhere'), { catch: false }), (error: HttpException) => {
        assert.equal(error.status, 404);
        assert.equal(error.message, 'Unable to find the controller for path "/nowhere". The route is wrongly configured.');
        return true;
      });
    });
  });

  describe('when something throws', () => {
    it('forces the HTTP exception\'s status and headers onto a 200 response from the exception event', async () => {
      const kernel = kernelWithController(() => {
        throw new MethodNotAllowedHttpException(['POST'], 'nope');
      });
      kernel.dispatcher.on('exception', (event) => event.setResponse(new Response('rendered')));
      const response = await kernel.handle(get());
      assert.equal(response.status, 405);
      assert.equal(response.headers.get('allow'), 'POST');
    });

    it('answers 500 for an error that is not an HTTP exception', async () => {
      const kernel = kernelWithController(() => {
        throw new TypeError('broken');
      });
      kernel.dispatcher.on('exception', (event) => event.setResponse(new Response('rendered')));
      assert.equal((await kernel.handle(get())).status, 500);
    });

    it('keeps the status a listener chose when allowCustomResponseCode is set', async () => {
      const kernel = kernelWithController(() => {
        throw new TypeError('broken');
      });
      kernel.dispatcher.on('exception', (event) => {
        event.allowCustomResponseCode = true;
        event.setResponse(new Response('fine', 200));
      });
      assert.equal((await kernel.handle(get())).status, 200);
    });

    it('rethrows when no exception listener answers, after finishing the request', async () => {
      const kernel = kernelWithController(() => {
        throw new TypeError('broken');
      });
      let finished = 0;
      kernel.dispatcher.on('finishRequest', () => void finished++);
      const request = get();
      await assert.rejects(kernel.handle(request), /broken/);
      assert.equal(finished, 1);
      assert.equal(request.stack?.depth, 0);
    });
  });

  describe('when a listener fails the request (fail(), on the request, view and exception events)', () => {
    // Each case runs twice, failing and throwing: fail() must be indistinguishable from a throw.
    const ways = {
      fail: (event: RequestEvent, error: Error) => event.fail(error),
      throw: (_event: RequestEvent, error: Error) => {
        throw error;
      },
    };
    for (const [way, end] of Object.entries(ways)) {
      it(`${way}: skips later listeners and the controller, and hands that very error to the exception event once`, () => {
        const error = new HttpException(404, { message: 'gone' });
        const kernel = kernelWithController(() => new Response('controller'));
        const seen: string[] = [];
        kernel.dispatcher.on('request', (event) => end(event, error), 64);
        kernel.dispatcher.on('request', () => void seen.push('later listener'), 48);
        kernel.dispatcher.on('exception', (event) => {
          seen.push('exception');
          assert.equal(event.error, error);
          event.setResponse(new Response('error page'));
        });
        const response = kernel.process(get());
        assert.ok(response instanceof Response);
        assert.equal(response.status, 404);
        assert.equal(response.body, 'error page');
        assert.deepEqual(seen, ['exception']);
      });

      it(`${way}: rethrows after finishing the request when nobody answers, and never handles the error twice`, async () => {
        const kernel = new Kernel();
        let exceptionEvents = 0;
        let finished = 0;
        kernel.dispatcher.on('request', (event) => end(event, new TypeError('refused')));
        kernel.dispatcher.on('exception', () => void exceptionEvents++);
        kernel.dispatcher.on('finishRequest', () => void finished++);
        assert.throws(() => kernel.process(get()), /refused/);
        assert.deepEqual([exceptionEvents, finished], [1, 1]);
        assert.throws(() => kernel.process(get(), { catch: false }), /refused/);
        assert.deepEqual([exceptionEvents, finished], [1, 2]);
      });

      it(`${way}: from an async listener, rejects or answers as the sync form does`, async () => {
        const kernel = kernelWithController(() => new Response('controller'));
        kernel.dispatcher.on('request', async (event) => {
          await Promise.resolve();
          end(event, new HttpException(429, { message: 'slow down' }));
        });
        let exceptionEvents = 0;
        kernel.dispatcher.on('exception', (event) => {
          exceptionEvents++;
          if (event.requestType === 'main') event.setResponse(new Response('too many'));
        });
        const response = await kernel.process(get());
        assert.equal(response.status, 429);
        await assert.rejects(async () => kernel.process(get(), { type: 'sub', catch: false }), /slow down/);
        assert.equal(exceptionEvents, 1);
      });

      it(`${way} in a view listener: hands that error to the exception event`, () => {
        const error = new HttpException(418, { message: 'not a teapot view' });
        const kernel = kernelWithController(() => ({ draft: true }));
        kernel.dispatcher.on('view', (event) => end(event, error));
        kernel.dispatcher.on('exception', (event) => event.setResponse(new Response(event.error === error ? 'same error' : 'other')));
        const response = kernel.process(get());
        assert.ok(response instanceof Response);
        assert.deepEqual([response.status, response.body], [418, 'same error']);
      });

      it(`${way} in an exception listener: the new error goes to the caller, off the stack, not handled again`, () => {
        const kernel = kernelWithController(() => {
          throw new TypeError('first');
        });
        let exceptionEvents = 0;
        kernel.dispatcher.on('exception', (event) => {
          exceptionEvents++;
          end(event, new RangeError('second'));
        });
        kernel.dispatcher.on('exception', (event) => event.setResponse(new Response('too late')), -1);
        const request = get();
        assert.throws(() => kernel.process(request), /second/);
        assert.deepEqual([exceptionEvents, request.stack?.depth], [1, 0]);
      });
    }
  });

  describe('process(), the sync-first form of handle()', () => {
    it('returns the response itself when every listener and the controller are sync, the error path included', () => {
      const kernel = kernelWithController(() => {
        throw new HttpException(404, { message: 'gone' });
      });
      const order: string[] = [];
      kernel.dispatcher.on('exception', (event) => {
        order.push('exception');
        const sub = event.request.duplicate({ attributes: { controller: () => new Response('error page') } });
        const rendered = kernel.process(sub, { type: 'sub', catch: false });
        assert.ok(rendered instanceof Response);
        event.setResponse(rendered);
      });
      kernel.dispatcher.on('finishRequest', (event) => void order.push(`finish ${event.requestType}`));
      const request = get();
      const response = kernel.process(request);
      assert.ok(response instanceof Response, 'no promise when nothing waited');
      assert.equal(response.status, 404);
      assert.equal(response.body, 'error page');
      assert.deepEqual(order, ['exception', 'finish sub', 'finish main']);
      assert.equal(request.stack?.depth, 0);
    });

    it('goes on in a promise from the first async step, with the same events in the same order', async () => {
      const seen: string[] = [];
      const kernel = kernelWithController(async () => {
        seen.push('controller');
        return new Response('later');
      });
      kernel.dispatcher.on('request', async () => void seen.push('request'), 0);
      kernel.dispatcher.on('response', () => void seen.push('response'));
      kernel.dispatcher.on('finishRequest', () => void seen.push('finishRequest'));
      const result = kernel.process(get());
      assert.ok(result instanceof Promise);
      assert.equal((await result).body, 'later');
      assert.deepEqual(seen, ['request', 'controller', 'response', 'finishRequest']);
    });

    it('throws an uncaught error synchronously after finishing the request; handle() rejects with it', async () => {
      const kernel = kernelWithController(() => {
        throw new TypeError('broken');
      });
      let finished = 0;
      kernel.dispatcher.on('finishRequest', () => void finished++);
      assert.throws(() => kernel.process(get(), { catch: false }), /broken/);
      assert.equal(finished, 1);
      await assert.rejects(kernel.handle(get(), { catch: false }), /broken/);
    });

    it('sends the error response unfiltered when a response listener fails on it', () => {
      const kernel = kernelWithController(() => {
        throw new HttpException(418, { message: 'teapot' });
      });
      kernel.dispatcher.on('exception', (event) => event.setResponse(new Response('short and stout')));
      kernel.dispatcher.on('response', () => {
        throw new Error('listener bug');
      });
      const response = kernel.process(get());
      assert.ok(response instanceof Response);
      assert.equal(response.status, 418);
      assert.equal(response.body, 'short and stout');
    });
  });
});
