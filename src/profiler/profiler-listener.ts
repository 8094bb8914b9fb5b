import type { Request } from '../http/request.js';
import type { Response } from '../http/response.js';
import type { Subscriber, Subscription } from '../kernel/event-dispatcher.js';
import type { ExceptionEvent, ResponseEvent, TerminateEvent } from '../kernel/events.js';
import type { Profile } from './profile.js';
import type { Profiler } from './profiler.js';

interface Collected {
  request: Request;
  response: Response;
  profile: Profile;
  error: unknown;
}

/**
 * Profiles every response, main and sub (Symfony's ProfilerListener, same priorities). Node serves
 * requests concurrently, so what PHP keeps in one slot per process is kept per request here: the
 * error of each request, and the profiles of each main request's family until it terminates.
 */
export class ProfilerListener implements Subscriber {
  #profiler: Profiler;
  #errors = new WeakMap<Request, unknown>();
  // Keyed by the main request: its profile and its sub-requests', in collection order.
  #families = new WeakMap<Request, Collected[]>();

  constructor({ profiler }: { profiler: Profiler }) {
    this.#profiler = profiler;
  }

  subscribedEvents(): Subscription[] {
    return [
      { event: 'exception', listener: this.onException, priority: 0, name: 'ProfilerListener.onException' },
      { event: 'response', listener: this.onResponse, priority: -100, name: 'ProfilerListener.onResponse' },
      { event: 'terminate', listener: this.onTerminate, priority: -1024, name: 'ProfilerListener.onTerminate' },
    ];
  }

  readonly onException = (event: ExceptionEvent): void => {
    this.#errors.set(event.request, event.error);
  };

  readonly onResponse = (event: ResponseEvent): void => {
    const { request, response } = event;
    if (!this.#profiler.isEnabled(request)) return;
    // The error sub-request renders its parent's error: both profiles carry it, as in the reference.
    const error = this.#errors.get(request) ?? request.attributes.exception;
    this.#errors.delete(request);
    const profile = this.#profiler.collect(request, response, error);

    const main = request.stack?.main ?? request;
    const family = this.#families.get(main) ?? [];
    // A request profiled again (a response listener after this one failed, and the error page went through
    // the response event) keeps its last record only, as the reference's one slot per request does: the
    // first, of a response never sent, is dropped, and its sub-requests become the new record's children.
    const replaced = family.length === 0 ? undefined : removeRecordOf(family, request);
    if (replaced !== undefined) this.#profiler.discard(replaced);
    // Sub-requests finish first: link the ones this request started as soon as its token exists.
    for (const child of family) {
      if ((child.profile.parent === undefined || child.profile.parent === replaced?.token) && parentOf(child.request) === request) {
        child.profile.parent = profile.token;
        profile.children.push(child.profile.token);
      }
    }
    family.push({ request, response, profile, error });
    this.#families.set(main, family);
  };

  /**
   * After the response is sent: late collection, then persistence of the family, children before
   * parents. The write is handed to the profiler without being awaited: the request and its response are
   * free to go as soon as their records are, whatever the disk's pace (`Profiler.flush()` waits for it).
   */
  readonly onTerminate = (event: TerminateEvent): void => {
    const family = this.#families.get(event.request);
    if (family === undefined) return;
    this.#families.delete(event.request);
    for (const { request, response, profile, error } of family) this.#profiler.lateCollect(profile, request, response, error);
    this.#profiler.persist(family.map(({ profile }) => profile));
  };
}

// Removes the request's record from its family, if it has one, and returns it.
function removeRecordOf(family: Collected[], request: Request): Profile | undefined {
  const index = family.findIndex((collected) => collected.request === request);
  return index === -1 ? undefined : family.splice(index, 1)[0]!.profile;
}

function parentOf(request: Request): Request | undefined {
  return request.parent ?? (request.stack?.current === request ? request.stack.parent : undefined);
}
