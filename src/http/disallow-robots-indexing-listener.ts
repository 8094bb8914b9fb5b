import type { ResponseEvent } from '../kernel/events.js';
import type { Subscriber, Subscription } from '../kernel/event-dispatcher.js';

/**
 * Symfony's DisallowRobotsIndexingListener: `X-Robots-Tag: noindex` on every response, main and
 * sub-requests, unless the application set its own. Priority -255 runs it after the profiler listener,
 * which fixes the reference's header order. Registered when `disallowSearchEngineIndex` is on (the
 * debug default).
 */
export class DisallowRobotsIndexingListener implements Subscriber {
  subscribedEvents(): Subscription[] {
    return [{ event: 'response', listener: this.onResponse.bind(this), priority: -255, name: 'DisallowRobotsIndexingListener.onResponse' }];
  }

  onResponse(event: ResponseEvent): void {
    if (!event.response.headers.has('x-robots-tag')) event.response.headers.set('X-Robots-Tag', 'noindex');
  }
}
