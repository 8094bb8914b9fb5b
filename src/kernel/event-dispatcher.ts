import type { KernelEventName, KernelEvents } from './events.js';

export type Listener<E> = (event: E) => void | Promise<void>;

/** One subscription to event K: the listener and its priority (higher runs first). */
export interface EventSubscription<K extends KernelEventName> {
  event: K;
  listener: Listener<KernelEvents[K]>;
  priority?: number;
  /** Shown in the profiler's timeline; defaults to the listener function's name. */
  name?: string;
}

/** A subscription to any kernel event, with the listener's type tied to the event's name. */
export type Subscription = { [K in KernelEventName]: EventSubscription<K> }[KernelEventName];

/** A component that declares its own listeners and priorities (Symfony's EventSubscriberInterface). */
export interface Subscriber {
  subscribedEvents(): Subscription[];
}

/**
 * Receives the duration of every listener call, and of the controller's call (`controllerCall`, with the
 * controller's name: see tracedCall); the profiler's performance panel installs one.
 */
export type ListenerTracer = (event: Pick<KernelEvents[KernelEventName], 'request'>, eventName: KernelEventName | 'controllerCall', listenerName: string, startMs: number, endMs: number) => void;

interface Entry {
  listener: Listener<never>;
  priority: number;
  name: string;
  order: number;
  /** The subscriber that declared the listener: what `this` is in it (undefined for on()). */
  owner: Subscriber | undefined;
}

/**
 * Typed, prioritised dispatcher. Listeners of equal priority run in registration order. A listener may
 * be async; the dispatcher awaits only the ones that return a promise, so sync listeners cost no tick.
 */
export class EventDispatcher {
  #listeners = new Map<KernelEventName, Entry[]>();
  #sequence = 0;
  #version = 0;
  tracer: ListenerTracer | undefined;

  /** Changes whenever a listener is added or removed: what a snapshot of listeners() is valid for. */
  get version(): number {
    return this.#version;
  }

  on<K extends KernelEventName>(event: K, listener: Listener<KernelEvents[K]>, priority = 0, name = listener.name || 'anonymous'): void {
    this.#add(event, listener as Listener<never>, priority, name, undefined);
  }

  // A new sorted list, never the one in use: a listener added while its event is dispatched joins the next
  // dispatch only, as with Symfony's dispatcher (off() replaces the list likewise).
  #add(event: KernelEventName, listener: Listener<never>, priority: number, name: string, owner: Subscriber | undefined): void {
    const list = [...(this.#listeners.get(event) ?? []), { listener, priority, name, order: this.#sequence++, owner }];
    list.sort((a, b) => b.priority - a.priority || a.order - b.order);
    this.#listeners.set(event, list);
    this.#version++;
  }

  /**
   * Adds the subscriber's listeners. Each is called on the subscriber, as Symfony calls a subscriber's
   * methods: a method given unbound (`listener: this.onRequest`) still reads the subscriber's fields, and
   * off() still finds it by that same function.
   */
  addSubscriber(subscriber: Subscriber): void {
    for (const sub of subscriber.subscribedEvents()) {
      // An arrow made in a helper has no name: `Audit.anonymous`, as on() names one, rather than `Audit.`.
      const name = sub.name ?? `${subscriber.constructor.name}.${sub.listener.name.replace(/^bound /, '') || 'anonymous'}`;
      this.#add(sub.event, sub.listener as Listener<never>, sub.priority ?? 0, name, subscriber);
    }
  }

  off<K extends KernelEventName>(event: K, listener: Listener<KernelEvents[K]>): void {
    const list = this.#listeners.get(event);
    if (list === undefined) return;
    this.#listeners.set(event, list.filter((entry) => entry.listener !== (listener as Listener<never>)));
    this.#version++;
  }

  /** Listeners of an event in call order, with their priorities (for the profiler and debug commands). */
  listeners(event: KernelEventName): { name: string; priority: number }[] {
    return (this.#listeners.get(event) ?? []).map(({ name, priority }) => ({ name, priority }));
  }

  /** Every listener of every event, in call order, with its function: for tools that read the code (where it is defined). */
  listenerFunctions(): { event: KernelEventName; name: string; listener: Listener<never> }[] {
    return [...this.#listeners].flatMap(([event, entries]) => entries.map(({ name, listener }) => ({ event, name, listener })));
  }

  /** Every event that has listeners, with them in call order (for the profiler's events panel). */
  allListeners(): { event: KernelEventName; listeners: { name: string; priority: number }[] }[] {
    return [...this.#listeners.keys()].map((event) => ({ event, listeners: this.listeners(event) }));
  }

  hasListeners(event: KernelEventName): boolean {
    return (this.#listeners.get(event)?.length ?? 0) > 0;
  }

  async dispatch<K extends KernelEventName>(name: K, event: KernelEvents[K]): Promise<KernelEvents[K]> {
    return this.dispatchEvent(name, event);
  }

  /**
   * dispatch() that stays synchronous as long as the listeners do: returns the event itself, or a promise
   * of it from the first listener that returned a promise on. A listener that throws synchronously throws
   * from here. The kernel uses it so that a request whose listeners are all sync costs no extra ticks.
   */
  dispatchEvent<K extends KernelEventName>(name: K, event: KernelEvents[K]): KernelEvents[K] | Promise<KernelEvents[K]> {
    const list = this.#listeners.get(name);
    if (list === undefined) return event;
    return this.#run(name, event, list, 0, this.tracer);
  }

  #run<K extends KernelEventName>(name: K, event: KernelEvents[K], list: Entry[], from: number, tracer: ListenerTracer | undefined): KernelEvents[K] | Promise<KernelEvents[K]> {
    for (let i = from; i < list.length; i++) {
      if (event.isPropagationStopped) break;
      const entry = list[i] as Entry;
      if (tracer === undefined) {
        const result = (entry.listener as Listener<KernelEvents[K]>).call(entry.owner, event);
        if (isThenable(result)) return Promise.resolve(result).then(() => this.#run(name, event, list, i + 1, tracer));
        continue;
      }
      // Traced, a listener that throws still shows in the timeline.
      const start = performance.now();
      let result: void | Promise<void>;
      try {
        result = (entry.listener as Listener<KernelEvents[K]>).call(entry.owner, event);
      } catch (error) {
        tracer(event, name, entry.name, start, performance.now());
        throw error;
      }
      if (isThenable(result)) {
        return Promise.resolve(result).then(
          () => {
            tracer(event, name, entry.name, start, performance.now());
            return this.#run(name, event, list, i + 1, tracer);
          },
          (error: unknown) => {
            tracer(event, name, entry.name, start, performance.now());
            throw error;
          },
        );
      }
      tracer(event, name, entry.name, start, performance.now());
    }
    return event;
  }
}

// Not only undefined: a listener from a JavaScript module may return anything, null included.
function isThenable(value: unknown): value is Promise<void> {
  return value !== undefined && value !== null && typeof (value as Promise<void>).then === 'function';
}
