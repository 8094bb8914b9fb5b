import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { Kernel } from '../kernel/kernel.js';
import { DisallowRobotsIndexingListener } from './disallow-robots-indexing-listener.js';
import { Request } from './request.js';
import { Response } from './response.js';

describe('DisallowRobotsIndexingListener', () => {
  async function withRobots(makeResponse: () => Response, type: 'main' | 'sub' = 'main'): Promise<Response> {
    const kernel = new Kernel();
    kernel.dispatcher.addSubscriber(new DisallowRobotsIndexingListener());
    kernel.dispatcher.on('request', (event) => {
      event.request.attributes.controller = makeResponse;
    });
    return kernel.handle(new Request({ method: 'GET', target: '/' }), { type });
  }

  it('adds X-Robots-Tag: noindex to main and sub-request responses', async () => {
    assert.equal((await withRobots(() => new Response('x'))).headers.get('x-robots-tag'), 'noindex');
    assert.equal((await withRobots(() => new Response('x'), 'sub')).headers.get('x-robots-tag'), 'noindex');
  });

  it('keeps an X-Robots-Tag the application set', async () => {
    assert.equal((await withRobots(() => new Response('x', 200, { 'X-Robots-Tag': 'nofollow' }))).headers.get('x-robots-tag'), 'nofollow');
  });

  it('runs after the profiler listener, last among response listeners', () => {
    assert.deepEqual(new DisallowRobotsIndexingListener().subscribedEvents().map(({ event, priority }) => ({ event, priority })), [{ event: 'response', priority: -255 }]);
  });

  it('puts the header after the ones set before it, as in the reference order', async () => {
    const kernel = new Kernel();
    kernel.dispatcher.addSubscriber(new DisallowRobotsIndexingListener());
    kernel.dispatcher.on('response', (event) => void event.response.headers.set('X-Debug-Token', 'abc123'), -100);
    kernel.dispatcher.on('request', (event) => {
      event.request.attributes.controller = () => new Response('x');
    });
    const response = await kernel.handle(new Request({ method: 'GET', target: '/' }));
    assert.deepEqual([...response.headers].map(([name]) => name).slice(-2), ['X-Debug-Token', 'X-Robots-Tag']);
  });
});
