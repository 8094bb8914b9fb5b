import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { NotFoundHttpException } from '../http/http-exception.js';
import { Request } from '../http/request.js';
import { Response } from '../http/response.js';
import { Kernel } from '../kernel/kernel.js';
import type { ExceptionEvent } from '../kernel/events.js';
import type { Logger } from '../logging/logger.js';
import { RecordingLogger } from '../logging/recording-logger.js';
import { ExceptionCollector, type ExceptionData } from './collectors/exception-collector.js';
import { RequestCollector, type RequestData } from './collectors/request-collector.js';
import { MemoryProfileStore } from './memory-profile-store.js';
import type { Profile } from './profile.js';
import { ProfilerListener } from './profiler-listener.js';
import { Profiler, type StagingProfileStore } from './profiler.js';

// A kernel that answers every request with 200 and profiles it into `store`; serve(n) sends n distinct pages
// and waits for each to be terminated (its records handed to the store).
function servingKernel(store: StagingProfileStore) {
  const logger = new RecordingLogger();
  const kernel = new Kernel();
  kernel.dispatcher.addSubscriber(new ProfilerListener({ profiler: new Profiler({ store, collectors: [], logger }) }));
  kernel.dispatcher.on('request', (event) => event.setResponse(new Response('ok')));
  let served = 0;
  const serve = async (count: number) => {
    for (let i = 0; i < count; i++) {
      const request = new Request({ method: 'GET', target: `/page/${served++}` });
      await kernel.terminate(request, await kernel.handle(request));
    }
  };
  return { logger, serve };
}

function tokens(...values: string[]): () => string {
  return () => values.shift() ?? 'ffffff';
}

/** A kernel whose main request fails with a 404 and whose exception listener renders it in a sub-request, like Symfony's ErrorListener. */
function failingKernel(store: StagingProfileStore = new MemoryProfileStore(), logger?: Logger, generateToken = tokens('a2546b', '4ea1d5'), clock = () => 1_800_000_000_000) {
  const kernel = new Kernel();
  const profiler = new Profiler({ store, collectors: [new RequestCollector(), new ExceptionCollector()], generateToken, clock, logger });
  kernel.dispatcher.addSubscriber(new ProfilerListener({ profiler }));
  kernel.dispatcher.on('request', (event) => {
    if (event.isMainRequest) throw new NotFoundHttpException('No route found for "GET http://localhost/robots.txt"');
  }, 32);
  kernel.dispatcher.on('exception', async (event: ExceptionEvent) => {
    const sub = event.request.duplicate({
      attributes: { exception: event.error, controllerName: 'ErrorController', controller: () => Response.html('<html><body>error</body></html>') },
    });
    event.setResponse(await event.kernel.handle(sub, { type: 'sub', catch: false }));
  }, -128);
  return { kernel, profiler };
}

describe('ProfilerListener', () => {
  describe('when a response listener after it fails and the error\'s response is profiled again', () => {
    it('keeps the request\'s last record only, with the sub-requests it made as children, as the reference keeps one per request', async () => {
      const store = new MemoryProfileStore();
      const kernel = new Kernel();
      kernel.dispatcher.addSubscriber(new ProfilerListener({ profiler: new Profiler({ store, collectors: [], generateToken: tokens('aaaaaa', 'bbbbbb', 'cccccc') }) }));
      kernel.dispatcher.on('request', (event) => {
        event.request.attributes.controller ??= async (request: Request) => {
          await kernel.handle(request.duplicate({ attributes: { controller: () => new Response('part') } }), { type: 'sub' });
          return new Response('page');
        };
      });
      let failed = false;
      kernel.dispatcher.on('response', (event) => {
        if (event.isMainRequest && !failed) throw new Error(String((failed = true)));
      }, -110);
      kernel.dispatcher.on('exception', (event) => event.setResponse(new Response('error', 500)));
      const request = new Request({ method: 'GET', target: '/' });
      const response = await kernel.handle(request);
      await kernel.terminate(request, response);

      assert.equal(response.headers.get('x-debug-token'), 'cccccc');
      const records = await store.find({ limit: 10 });
      assert.deepEqual(records.map(({ token, parent, statusCode }) => ({ token, parent, statusCode })).sort((a, b) => a.token.localeCompare(b.token)), [
        { token: 'aaaaaa', parent: 'cccccc', statusCode: 200 },
        { token: 'cccccc', parent: undefined, statusCode: 500 },
      ]);
      assert.deepEqual((await store.read('cccccc'))?.children, ['aaaaaa']);
    });
  });

  describe('when a request fails and its error is rendered by a sub-request', () => {
    it('names the main profile in X-Debug-Token and the sub-request profile in X-Previous-Debug-Token, appended last', async () => {
      const { kernel } = failingKernel();
      const response = await kernel.handle(new Request({ method: 'GET', target: '/robots.txt' }));
      assert.equal(response.status, 404);
      assert.equal(response.headers.get('x-debug-token'), '4ea1d5');
      assert.equal(response.headers.get('x-previous-debug-token'), 'a2546b');
      const names = [...response.headers].map(([name]) => name.toLowerCase());
      assert.ok(names.indexOf('x-debug-token') < names.indexOf('x-previous-debug-token'));
      assert.equal(names.at(-1), 'x-previous-debug-token');
    });

    it('links both profiles and makes them readable as soon as handle() returns', async () => {
      const { kernel, profiler } = failingKernel();
      await kernel.handle(new Request({ method: 'GET', target: '/robots.txt' }));
      const main = (await profiler.loadProfile('4ea1d5')) as Profile;
      const sub = (await profiler.loadProfile('a2546b')) as Profile;
      assert.deepEqual(main.children, ['a2546b']);
      assert.equal(main.parent, undefined);
      assert.equal(sub.parent, '4ea1d5');
      assert.equal((main.collectors.request as RequestData).controller, 'n/a');
      assert.equal((main.collectors.request as RequestData).forwardToken, 'a2546b');
      assert.equal((sub.collectors.request as RequestData).controller, 'ErrorController');
      assert.equal((sub.collectors.request as RequestData).requestType, 'sub');
    });

    it('records the error in both profiles', async () => {
      const { kernel, profiler } = failingKernel();
      await kernel.handle(new Request({ method: 'GET', target: '/robots.txt' }));
      for (const token of ['4ea1d5', 'a2546b']) {
        const chain = ((await profiler.loadProfile(token))?.collectors.exception as ExceptionData).chain;
        assert.equal(chain[0]?.className, 'NotFoundHttpException');
        assert.equal(chain[0]?.status, 404);
      }
    });

    it('persists the sub-request profile before the main one when the request terminates', async () => {
      const written: string[] = [];
      const store = new MemoryProfileStore();
      const write = store.write.bind(store);
      store.write = async (profile) => {
        written.push(`${profile.token}<${profile.parent ?? ''}`);
        await write(profile);
      };
      const { kernel } = failingKernel(store);
      const request = new Request({ method: 'GET', target: '/robots.txt' });
      const response = await kernel.handle(request);
      assert.deepEqual(written, []);
      await kernel.terminate(request, response);
      assert.deepEqual(written, ['a2546b<4ea1d5', '4ea1d5<']);
    });
  });

  it('logs a failing durable write once per outage and still answers, and the recovery once', async () => {
    const store = new MemoryProfileStore();
    let full = true;
    const write = store.write.bind(store);
    store.write = async (profile) => {
      if (full) throw new Error('disk full');
      return write(profile);
    };
    const lines: string[] = [];
    const logger = { error: (message: string) => void lines.push(message), info: (message: string) => void lines.push(message) } as unknown as Logger;
    let issued = 0;
    let now = 1_800_000_000_000;
    const { kernel } = failingKernel(store, logger, () => (++issued).toString(16).padStart(6, '0'), () => now);
    const serve = async () => {
      const request = new Request({ method: 'GET', target: '/robots.txt' });
      const response = await kernel.handle(request);
      await kernel.terminate(request, response);
      return response;
    };
    assert.equal((await serve()).status, 404);
    await serve();
    assert.deepEqual(lines, ['profile store write failed']);
    full = false;
    now += 1_000;
    await serve();
    await serve();
    assert.deepEqual(lines, ['profile store write failed', 'profile store recovered: records are written again']);
  });

  it('keeps records in memory only, and says so once, while the durable store falls behind', async () => {
    const store = new MemoryProfileStore();
    let release: () => void = () => {};
    const blocked = new Promise<void>((resolve) => (release = resolve));
    let started = 0;
    store.write = async () => {
      started++;
      await blocked;
    };
    const logger = new RecordingLogger();
    const kernel = new Kernel();
    const profiler = new Profiler({ store, collectors: [], logger });
    kernel.dispatcher.addSubscriber(new ProfilerListener({ profiler }));
    kernel.dispatcher.on('request', (event) => event.setResponse(new Response('ok')));
    const terminated: Promise<void>[] = [];
    for (let i = 0; i < 300; i++) {
      const request = new Request({ method: 'GET', target: `/page/${i}` });
      terminated.push(kernel.terminate(request, await kernel.handle(request)));
    }
    assert.equal(started, 256, 'no more durable writes queued than the bound');
    assert.deepEqual(logger.records.map((record) => record.message), ['profile store falling behind: records kept in memory only']);
    assert.equal((await store.find({ limit: 1000 })).length, 300, 'every record still readable from memory');
    release();
    await Promise.all(terminated);
  });

  it('says it once more only after the store has caught up by half, not each time it hovers at the bound', async () => {
    const store = new MemoryProfileStore();
    const pending: (() => void)[] = [];
    store.write = () => new Promise<void>((resolve) => pending.push(resolve));
    const { logger, serve } = servingKernel(store);
    const finish = async (count: number) => {
      for (const resolve of pending.splice(0, count)) resolve();
      await new Promise((resolve) => setImmediate(resolve));
    };
    const warnings = () => logger.records.filter((record) => record.message.startsWith('profile store falling behind')).length;
    await serve(260);
    // Hovering at the bound: one write done, two more records.
    for (let round = 0; round < 5; round++) {
      await finish(1);
      await serve(2);
    }
    assert.equal(warnings(), 1);
    // Caught up by half, then behind again: a new episode.
    await finish(200);
    await serve(250);
    assert.equal(warnings(), 2);
    await finish(pending.length);
  });

  it('says nothing of falling behind while the store fails its writes, each queue failing at once (Redis unreachable)', async () => {
    const store = new MemoryProfileStore();
    const pending: ((error: Error) => void)[] = [];
    store.write = () => new Promise<void>((_, reject) => pending.push(reject));
    const { logger, serve } = servingKernel(store);
    const failAll = async () => {
      for (const reject of pending.splice(0)) reject(new Error('Reached the max retries per request limit'));
      await new Promise((resolve) => setImmediate(resolve));
    };
    for (let round = 0; round < 3; round++) {
      await serve(260);
      await failAll();
    }
    assert.deepEqual(logger.records.map((record) => record.message), ['profile store falling behind: records kept in memory only', 'profile store write failed']);
  });

  describe('when a request is marked disabled', () => {
    it('neither profiles it nor the error sub-request it starts', async () => {
      const store = new MemoryProfileStore();
      const kernel = new Kernel();
      const profiler = new Profiler({ store, collectors: [] });
      kernel.dispatcher.addSubscriber(new ProfilerListener({ profiler }));
      kernel.dispatcher.on('request', (event) => {
        if (!event.isMainRequest) return;
        profiler.disable(event.request);
        throw new NotFoundHttpException('Panel "bogus" is not available for token "4ea1d5".');
      }, 32);
      kernel.dispatcher.on('exception', async (event: ExceptionEvent) => {
        const sub = event.request.duplicate({ attributes: { controller: () => Response.html('error') } });
        event.setResponse(await event.kernel.handle(sub, { type: 'sub', catch: false }));
      }, -128);
      const response = await kernel.handle(new Request({ method: 'GET', target: '/_profiler/4ea1d5?panel=bogus' }));
      assert.equal(response.headers.has('x-debug-token'), false);
      assert.deepEqual(await store.find({ limit: 10 }), []);
    });
  });

  it('keeps concurrent requests apart', async () => {
    const kernel = new Kernel();
    const profiler = new Profiler({ store: new MemoryProfileStore(), collectors: [new ExceptionCollector()], generateToken: tokens('000001', '000002') });
    kernel.dispatcher.addSubscriber(new ProfilerListener({ profiler }));
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    kernel.dispatcher.on('request', async (event) => {
      event.request.attributes.controller = () => Response.text('ok');
      if (event.request.pathInfo === '/slow') await gate;
      if (event.request.pathInfo === '/fails') throw new NotFoundHttpException('nope');
    });
    kernel.dispatcher.on('exception', (event) => event.setResponse(Response.text('error', 404)), -128);
    const slow = kernel.handle(new Request({ method: 'GET', target: '/slow' }));
    const failed = await kernel.handle(new Request({ method: 'GET', target: '/fails' }));
    release();
    const ok = await slow;
    const errorOf = async (response: Response) => ((await profiler.loadProfile(response.headers.get('x-debug-token')!))?.collectors.exception as ExceptionData).chain.length;
    assert.equal(await errorOf(failed), 1);
    assert.equal(await errorOf(ok), 0);
  });
});
