import type { ServerResponse } from 'node:http';
import type { SignalSource } from '../http/request.js';

/** The reason request.signal aborts with: the client closed the connection before the response was complete. */
export class ClientGoneError extends Error {
  constructor() {
    super('The client closed the connection before the response was complete.');
    this.name = 'ClientGoneError';
  }
}

/** The reason request.signal aborts with when the server stops while the response is streamed: its source should end. */
export class ServerStoppingError extends Error {
  constructor() {
    super('The server is stopping: the streamed response is to end.');
    this.name = 'ServerStoppingError';
  }
}

/** Emitted on a response whose streamed body is to end because the server stops (see StreamStop). */
export const STOPPING_EVENT = 'keel.stopping';

// Responses streamed as server-sent events: the streams that never end, the only ones a stop tells to end.
const EVENT_STREAMS = new WeakSet<ServerResponse>();

/**
 * Marks a response whose body is server-sent events (`text/event-stream`): when the server stops, its
 * request.signal aborts. Any other streamed body (an export, a file) has the grace period to finish, as
 * any other response: told to stop, a generator waiting on the signal would end a finite body early, and
 * end it cleanly, a cut the client could not see.
 */
export function markEventStream(res: ServerResponse): void {
  EVENT_STREAMS.add(res);
}

/**
 * Whether a streamed body failed because its source stopped on request.signal, as asked: the client went
 * away, or the server stops. Such a source fails with the signal's reason (`signal.throwIfAborted()`), or
 * with an AbortError caused by it, which is how node's own APIs end a wait on an aborted signal
 * (`setTimeout` of node:timers/promises, `events.on`). That is no failure of the application. pipeline()
 * may report it together with the premature close of the response it was writing to, as one AggregateError.
 */
export function isSignalStop(error: unknown): boolean {
  if (error instanceof AggregateError) {
    const errors: unknown[] = error.errors;
    return errors.some(isSignalStop) && errors.every((each) => isSignalStop(each) || (each as NodeJS.ErrnoException).code === 'ERR_STREAM_PREMATURE_CLOSE');
  }
  return isStopReason(error) || (error instanceof Error && error.name === 'AbortError' && isStopReason(error.cause));
}

/** Whether a source failed because the server stops: the signal's reason, or an AbortError caused by it. */
function isServerStopping(error: unknown): boolean {
  return error instanceof ServerStoppingError || (error instanceof Error && error.name === 'AbortError' && error.cause instanceof ServerStoppingError);
}

function isStopReason(reason: unknown): boolean {
  return reason instanceof ClientGoneError || reason instanceof ServerStoppingError;
}

/**
 * request.signal of a request served by node, made on first use only, as most requests never ask. It
 * aborts when the client goes away before the response is complete, and when the server stops while the
 * response is being streamed: a stream that never ends (server-sent events) would otherwise hold the stop
 * for its whole grace period, then be cut.
 */
export class ClientGoneSignal implements SignalSource {
  readonly #res: ServerResponse;
  readonly #stopping: () => boolean;

  constructor(res: ServerResponse, stopping: () => boolean) {
    this.#res = res;
    this.#stopping = stopping;
  }

  signal(): AbortSignal {
    const res = this.#res;
    const controller = new AbortController();
    const abort = (): void => {
      if (!res.writableFinished) controller.abort(new ClientGoneError());
    };
    const stop = (): void => {
      if (!res.writableFinished && EVENT_STREAMS.has(res)) controller.abort(new ServerStoppingError());
    };
    if (res.closed) abort();
    else res.once('close', abort);
    // Asked for after its stream was told to end: the signal is born aborted.
    if (this.#stopping() && res.headersSent && EVENT_STREAMS.has(res)) stop();
    else res.once(STOPPING_EVENT, stop);
    return controller.signal;
  }
}

/**
 * An async iterable (a generator of server-sent events) whose wait on request.signal fails when the server
 * stops ends there instead: its body then ends with its last chunk, as a generator that returns on the abort
 * does, rather than being cut. Each chunk goes through `check` (which throws on one a socket cannot write),
 * in this one pass over the source rather than in a second generator around it; ended early (a client
 * gone), for await returns the source, which stops it. Any other failure is told to `onFailure` first.
 */
export async function* endingAtStop(
  source: AsyncIterable<unknown>,
  onFailure: ((error: unknown) => void) | undefined,
  check: (chunk: unknown) => string | Uint8Array,
): AsyncGenerator<string | Uint8Array> {
  try {
    for await (const chunk of source) yield check(chunk);
  } catch (error) {
    if (isServerStopping(error)) return;
    // Told before the failure reaches pipeline(), which closes the connection on it.
    onFailure?.(error);
    throw error;
  }
}
