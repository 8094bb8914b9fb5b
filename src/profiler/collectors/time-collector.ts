import type { Request } from '../../http/request.js';
import type { ListenerTracer } from '../../kernel/event-dispatcher.js';
import type { Collector } from './collector.js';

/** One listener call; times in ms since the request started. */
export interface TimelineEntry {
  event: string;
  listener: string;
  start: number;
  end: number;
}

/** A sub-request (the error page's) as its parent saw it; times in ms since the parent started. */
export interface SubRequestSpan {
  start: number;
  /** When its last listener call ended, its response ready. */
  end: number;
}

export interface TimeData {
  /** ms since the epoch. */
  startedAt: number;
  /** ms from the start of the request to the profile's collection, then to the end of its last listener. */
  duration: number;
  events: TimelineEntry[];
  /** Absent from records made before sub-requests were recorded, and when there was none. */
  subRequests?: SubRequestSpan[];
}

// Raw tracer samples: [event, listener, startPerf, endPerf] flattened, so tracing one call is one push.
type Samples = (string | number)[];

declare module '../../http/request.js' {
  interface RequestAttributes {
    /**
     * The time collector's samples of the request's listener calls. Kept on the request rather than in a
     * WeakMap keyed by it: V8 promotes a WeakMap's young entries (see attached), every request's
     * samples and the request itself with them.
     */
    listenerSamples?: (string | number)[];
    /** The sub-requests whose listeners the time collector traced, for their parent's timeline. */
    tracedSubRequests?: Request[];
  }
}

/**
 * Request duration and the kernel's listener timeline. `tracer` goes on the dispatcher
 * (`kernel.dispatcher.tracer = collector.tracer`); it only appends raw numbers, the timeline is built at
 * collect time.
 */
export class TimeCollector implements Collector<TimeData> {
  readonly name = 'time';
  #now: () => number;

  /** `now` returns ms since the epoch with sub-ms precision, on the same scale as `request.startedAt`. */
  constructor({ now = () => performance.timeOrigin + performance.now() }: { now?: () => number } = {}) {
    this.#now = now;
  }

  readonly tracer: ListenerTracer = (event, eventName, listenerName, start, end) => {
    const { request } = event;
    const { attributes } = request;
    if (attributes.listenerSamples === undefined) {
      attributes.listenerSamples = [];
      // A sub-request's first traced call: its parent learns of it here, so that a main request without
      // one pays nothing for the feature.
      if (request.parent !== undefined) (request.parent.attributes.tracedSubRequests ??= []).push(request);
    }
    attributes.listenerSamples.push(eventName, listenerName, start, end);
  };

  collect(request: Request): TimeData {
    return this.#withSubRequests({ startedAt: request.startedAt, duration: microseconds(this.#now() - request.startedAt), events: this.#timeline(request) }, request);
  }

  /**
   * After the response: the listeners that ran after collection (and terminate's) join the timeline, and the
   * total time runs to the end of the last of them, as Symfony's runs to the end of its stopwatch section:
   * a total shorter than the timeline it sums up would not add up.
   */
  lateCollect(data: TimeData, request: Request): TimeData {
    const events = this.#timeline(request);
    const duration = events.reduce((latest, entry) => Math.max(latest, entry.end), data.duration);
    return this.#withSubRequests({ ...data, duration, events }, request);
  }

  // Each sub-request's span only: its own record has its timeline, one click away.
  #withSubRequests(data: TimeData, request: Request): TimeData {
    const subRequests = request.attributes.tracedSubRequests;
    if (subRequests === undefined) return data;
    const origin = request.startedAt - performance.timeOrigin;
    data.subRequests = subRequests.map((sub) => {
      const samples: Samples = sub.attributes.listenerSamples ?? [];
      const start = sub.startedAt - request.startedAt;
      return { start: microseconds(start), end: samples.length === 0 ? microseconds(start) : microseconds((samples[samples.length - 1] as number) - origin) };
    });
    return data;
  }

  #timeline(request: Request): TimelineEntry[] {
    const samples: Samples = request.attributes.listenerSamples ?? [];
    // The tracer reports performance.now() values; startedAt is timeOrigin-based.
    const origin = request.startedAt - performance.timeOrigin;
    const events: TimelineEntry[] = [];
    for (let i = 0; i < samples.length; i += 4) {
      events.push({
        event: samples[i] as string,
        listener: samples[i + 1] as string,
        start: microseconds((samples[i + 2] as number) - origin),
        end: microseconds((samples[i + 3] as number) - origin),
      });
    }
    return events;
  }
}

/**
 * A duration in ms rounded to the microsecond, the clock's real resolution: `0.017` rather than
 * `0.016993218750030792`, which is shorter to store and several times cheaper to write as JSON.
 */
function microseconds(ms: number): number {
  return Math.round(ms * 1000) / 1000;
}
