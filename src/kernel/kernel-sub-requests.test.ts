import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { Request } from '../http/request.js';
import { Response } from '../http/response.js';
import { Kernel } from './kernel.js';
import { get, kernelWithController } from './kernel.fixture.js';


describe('Kernel', () => {
  describe('sub-requests', () => {
    it('handles a duplicated request as a sub-request with its own events, sharing the request stack', async () => {
      const kernel = new Kernel();
      const types: string[] = [];
      kernel.dispatcher.on('request', (event) => {
        types.push(event.requestType);
        if (event.isMainRequest) {
          event.request.attributes.controller = async (request) => {
            const sub = (request as Request).duplicate({ attributes: { controller: () => new Response('from sub') } });
            assert.equal(sub.stack, (request as Request).stack);
            assert.equal(sub.stack?.depth, 1);
            return kernel.handle(sub, { type: 'sub' });
          };
        }
      });
      const response = await kernel.handle(get());
      assert.equal(response.body, 'from sub');
      assert.deepEqual(types, ['main', 'sub']);
    });

    it('takes a sub-request off the stack even when its error handling fails (an exception or response listener throwing)', async () => {
      for (const failing of ['exception', 'response'] as const) {
        const kernel = new Kernel();
        let depthAfter = -1;
        let currentAfter: Request | undefined;
        kernel.dispatcher.on(failing, (event) => {
          if (!event.isMainRequest && (failing === 'exception' || event.response?.status === 500)) throw new Error(`${failing} listener fails`);
        });
        kernel.dispatcher.on('exception', (event) => event.setResponse(new Response('error page', 500)), -10);
        kernel.dispatcher.on('request', (event) => {
          if (!event.isMainRequest) return;
          event.request.attributes.controller = async (request: Request) => {
            const sub = request.duplicate({ attributes: { controller: () => { throw new Error('sub fails'); } } });
            await Promise.resolve(kernel.handle(sub, { type: 'sub' })).catch(() => undefined);
            depthAfter = request.stack?.depth ?? -1;
            currentAfter = request.stack?.current;
            return new Response('main');
          };
        });
        const main = get();
        assert.equal((await kernel.handle(main)).body, 'main', failing);
        assert.equal(depthAfter, 1, failing);
        assert.equal(currentAfter, main, failing);
      }
    });

    it('takes each of concurrent sub-requests off the stack by itself, whichever finishes first', async () => {
      const kernel = new Kernel();
      kernel.dispatcher.on('request', (event) => {
        if (!event.isMainRequest) return;
        event.request.attributes.controller = async (request: Request) => {
          const opened: (() => void)[] = [];
          const gated = () => new Promise<Response>((resolve) => opened.push(() => resolve(new Response('sub'))));
          // Both are on the stack, the second above the first; the first finishes first.
          const [first, second] = [request.duplicate({ attributes: { controller: gated } }), request.duplicate({ attributes: { controller: gated } })];
          const handled = [kernel.handle(first, { type: 'sub' }), kernel.handle(second, { type: 'sub' })];
          opened[0]!();
          await handled[0];
          const afterFirst = request.stack?.current === second ? 'second' : 'not the second';
          opened[1]!();
          await handled[1];
          return new Response(`${afterFirst}, then ${request.stack?.current === request ? 'main' : 'not main'}`);
        };
      });
      assert.equal((await kernel.handle(get())).body, 'second, then main');
    });

    it('keeps concurrent main requests on separate stacks', async () => {
      const kernel = kernelWithController(async (request) => {
        await new Promise((resolve) => setImmediate(resolve));
        return new Response(String(request.stack?.depth));
      });
      const [a, b] = await Promise.all([kernel.handle(get('/a')), kernel.handle(get('/b'))]);
      assert.equal(a.body, '1');
      assert.equal(b.body, '1');
    });
  });
});
