import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { Request } from '../http/request.js';
import { Response } from '../http/response.js';
import type { EventSubscription, KernelEventName, KernelEvents, Listener, Subscriber, Subscription } from 'keel';
import { EventDispatcher } from './event-dispatcher.js';
import { RequestEvent } from './events.js';
import { Kernel } from './kernel.js';

function requestEvent(): RequestEvent {
  return new RequestEvent(new Kernel(), new Request({ method: 'GET', target: '/' }), 'main');
}

describe('EventDispatcher', () => {
  it('calls listeners by descending priority, then in registration order', async () => {
    const dispatcher = new EventDispatcher();
    const calls: string[] = [];
    dispatcher.on('request', () => void calls.push('a0'), 0);
    dispatcher.on('request', () => void calls.push('b32'), 32);
    dispatcher.on('request', () => void calls.push('c0'), 0);
    dispatcher.on('request', () => void calls.push('d-10'), -10);
    await dispatcher.dispatch('request', requestEvent());
    assert.deepEqual(calls, ['b32', 'a0', 'c0', 'd-10']);
  });

  it('calls a listener added during a dispatch from the next dispatch on, as Symfony does', async () => {
    const dispatcher = new EventDispatcher();
    const calls: string[] = [];
    let added = false;
    dispatcher.on('request', () => {
      calls.push('a');
      if (!added) dispatcher.on('request', () => void calls.push('late'), 10);
      added = true;
    });
    dispatcher.on('request', () => void calls.push('b'));
    await dispatcher.dispatch('request', requestEvent());
    assert.deepEqual(calls, ['a', 'b']);
    await dispatcher.dispatch('request', requestEvent());
    assert.deepEqual(calls, ['a', 'b', 'late', 'a', 'b']);
  });

  it('stops calling listeners once one sets a response', async () => {
    const dispatcher = new EventDispatcher();
    const calls: string[] = [];
    dispatcher.on('request', (event) => event.setResponse(new Response('early')), 10);
    dispatcher.on('request', () => void calls.push('late'), 0);
    const event = await dispatcher.dispatch('request', requestEvent());
    assert.equal(event.response?.body, 'early');
    assert.deepEqual(calls, []);
  });

  it('awaits async listeners before calling the next one', async () => {
    const dispatcher = new EventDispatcher();
    const calls: string[] = [];
    dispatcher.on('request', async () => {
      await new Promise((resolve) => setImmediate(resolve));
      calls.push('async');
    }, 1);
    dispatcher.on('request', () => void calls.push('sync'), 0);
    await dispatcher.dispatch('request', requestEvent());
    assert.deepEqual(calls, ['async', 'sync']);
  });

  it('registers a subscriber\'s listeners under the subscriber\'s name, with their priorities', () => {
    class AuditListener implements Subscriber {
      subscribedEvents(): Subscription[] {
        return [{ event: 'request', listener: this.onRequest.bind(this), priority: 8 }];
      }
      onRequest(): void {}
    }
    const dispatcher = new EventDispatcher();
    dispatcher.addSubscriber(new AuditListener());
    assert.deepEqual(dispatcher.listeners('request'), [{ name: 'AuditListener.onRequest', priority: 8 }]);
  });

  // A helper of the application's own, generic in the event's name, needs the one-event subscription type;
  // its arrows have no name of their own, and are shown as anonymous rather than as `Audit.`.
  it('takes subscriptions built by a generic helper typed with EventSubscription', async () => {
    const on = <K extends KernelEventName>(event: K, listener: Listener<KernelEvents[K]>, priority = 0): EventSubscription<K> => ({ event, listener, priority });
    const calls: string[] = [];
    class Audit implements Subscriber {
      subscribedEvents(): Subscription[] {
        return [on('request', (event) => void calls.push(event.request.method), 4), on('terminate', () => void calls.push('terminate'))];
      }
    }
    const dispatcher = new EventDispatcher();
    dispatcher.addSubscriber(new Audit());
    await dispatcher.dispatch('request', requestEvent());
    assert.deepEqual(calls, ['GET']);
    assert.deepEqual(dispatcher.listeners('request'), [{ name: 'Audit.anonymous', priority: 4 }]);
  });

  it("calls a subscriber's listener on the subscriber, so that a method given unbound reads its own fields", async () => {
    class TokenCheck implements Subscriber {
      readonly #token = 'secret';
      subscribedEvents(): Subscription[] {
        return [{ event: 'request', listener: this.onRequest }];
      }
      onRequest(event: RequestEvent): void {
        if (event.request.header('authorization') !== this.#token) event.setResponse(new Response('', 401));
      }
    }
    const dispatcher = new EventDispatcher();
    dispatcher.addSubscriber(new TokenCheck());
    const event = await dispatcher.dispatch('request', requestEvent());
    assert.equal(event.response?.status, 401);
  });

  it('reports every listener call to the tracer with its duration', async () => {
    const dispatcher = new EventDispatcher();
    const traced: string[] = [];
    dispatcher.tracer = (_event, eventName, listenerName, start, end) => {
      assert.ok(end >= start);
      traced.push(`${eventName}:${listenerName}`);
    };
    dispatcher.on('request', function routeIt() {}, 32);
    await dispatcher.dispatch('request', requestEvent());
    assert.deepEqual(traced, ['request:routeIt']);
  });

  it('reports a listener that throws to the tracer too', async () => {
    const dispatcher = new EventDispatcher();
    const traced: string[] = [];
    dispatcher.tracer = (_event, _name, listenerName) => void traced.push(listenerName);
    dispatcher.on('request', function failing() {
      throw new Error('no route');
    });
    await assert.rejects(dispatcher.dispatch('request', requestEvent()), /no route/);
    assert.deepEqual(traced, ['failing']);
  });

  it('goes on past a listener written in JavaScript that returns null or another value, with or without a tracer', async () => {
    for (const traced of [false, true]) {
      const dispatcher = new EventDispatcher();
      if (traced) dispatcher.tracer = () => {};
      const calls: string[] = [];
      // What `(event) => cache.get(event.request.pathInfo) ?? null` gives in a JavaScript module.
      dispatcher.on('request', (() => null) as unknown as () => void, 10);
      dispatcher.on('request', (() => calls.push('next')) as unknown as () => void);
      await dispatcher.dispatch('request', requestEvent());
      assert.deepEqual(calls, ['next'], `traced: ${traced}`);
    }
  });

  it('removes a listener with off()', async () => {
    const dispatcher = new EventDispatcher();
    let called = false;
    const listener = (): void => void (called = true);
    dispatcher.on('request', listener);
    dispatcher.off('request', listener);
    await dispatcher.dispatch('request', requestEvent());
    assert.equal(called, false);
    assert.equal(dispatcher.hasListeners('request'), false);
  });
});
