import type { Request } from '../http/request.js';
import type { LogRecord } from '../logging/log-record.js';

/**
 * The requests being handled for one incoming connection request: the main request at the bottom, an
 * error sub-request above it. Node serves requests concurrently, so there is one stack per main request
 * (shared by its sub-requests through `request.stack`), never one per process as in PHP.
 */
/**
 * Log records a request keeps at most: a stream open for hours (server-sent events) that logs each event
 * held every line for as long, on each of its connections.
 */
export const MAX_REQUEST_LOGS = 10_000;

export class RequestStack {
  #requests: Request[] = [];
  /** The log records emitted while handling this main request and its sub-requests, in order: the first MAX_REQUEST_LOGS. */
  readonly logs: LogRecord[] = [];
  /** The records emitted past MAX_REQUEST_LOGS, counted, not kept. */
  droppedLogs = 0;
  /** The prod logger's records held back for this request (see RequestLogBuffer). */
  heldLogs: unknown[] | true | undefined = undefined;

  addLog(record: LogRecord): void {
    if (this.logs.length < MAX_REQUEST_LOGS) this.logs.push(record);
    else this.droppedLogs++;
  }

  push(request: Request): void {
    this.#requests.push(request);
  }

  pop(): Request | undefined {
    return this.#requests.pop();
  }

  /**
   * Takes `request` off the stack wherever it is; nothing when it has left already. What the kernel does
   * once a request is over: sub-requests a controller runs concurrently (Promise.all) end in any order, and
   * pop() would take off the one above, leaving the finished one as the current request of the other's
   * listeners.
   */
  leave(request: Request): void {
    const index = this.#requests.lastIndexOf(request);
    if (index !== -1) this.#requests.splice(index, 1);
  }

  get current(): Request | undefined {
    return this.#requests.at(-1);
  }

  get main(): Request | undefined {
    return this.#requests[0];
  }

  /** The request below the current one, or undefined when the current one is the main request. */
  get parent(): Request | undefined {
    return this.#requests.length > 1 ? this.#requests.at(-2) : undefined;
  }

  get depth(): number {
    return this.#requests.length;
  }
}
