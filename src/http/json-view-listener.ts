import type { Subscriber, Subscription } from '../kernel/event-dispatcher.js';
import type { ViewEvent } from '../kernel/events.js';
import { Response } from './response.js';

/**
 * Lets controllers return plain data: a plain object or array becomes a JSON response (the `view`
 * event, dispatched only when a controller returns something other than a Response).
 */
export class JsonViewListener implements Subscriber {
  subscribedEvents(): Subscription[] {
    return [{ event: 'view', listener: this.onView, priority: 0, name: 'JsonViewListener.onView' }];
  }

  readonly onView = (event: ViewEvent): void => {
    const result = event.controllerResult;
    // A record without prototype is plain data too (a parsed cookie header, Object.create(null)).
    if (Array.isArray(result) || (typeof result === 'object' && result !== null && isPlainPrototype(Object.getPrototypeOf(result)))) {
      event.setResponse(Response.json(result));
    }
  };
}

function isPlainPrototype(proto: unknown): boolean {
  return proto === Object.prototype || proto === null;
}
