import type { EventDispatcher } from '../../kernel/event-dispatcher.js';
import { freezeWithJson } from '../profile-json.js';
import type { Collector } from './collector.js';

/** The listeners of one kernel event, in the order the dispatcher calls them. */
export interface RegisteredEvent {
  event: string;
  listeners: readonly { name: string; priority: number }[];
}

export interface EventsData {
  /** Every listener the dispatcher had for each event when the request was served. */
  registered: readonly RegisteredEvent[];
}

/**
 * What the dispatcher had registered (Symfony's event dispatcher panel): which of these listeners a request
 * called, and for how long, is the time collector's timeline, which the panel reads beside it. The list is
 * the same for every request until a listener is added or removed, so one frozen snapshot serves them all,
 * its JSON text made once (see freezeWithJson).
 */
export class EventsCollector implements Collector<EventsData> {
  readonly name = 'events';
  readonly #dispatcher: EventDispatcher;
  #snapshot: EventsData | undefined;
  #version = -1;

  constructor(dispatcher: EventDispatcher) {
    this.#dispatcher = dispatcher;
  }

  collect(): EventsData {
    if (this.#snapshot === undefined || this.#version !== this.#dispatcher.version) {
      this.#version = this.#dispatcher.version;
      const registered = this.#dispatcher.allListeners().map(({ event, listeners }) => Object.freeze({ event, listeners: Object.freeze(listeners.map((listener) => Object.freeze(listener))) }));
      this.#snapshot = freezeWithJson({ registered: Object.freeze(registered) });
    }
    return this.#snapshot;
  }
}
