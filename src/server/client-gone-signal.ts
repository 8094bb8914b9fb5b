import type { ServerResponse } from 'node:http';
import type { SignalSource } from '../http/request.js';

/** The reason request.signal aborts with: the client closed the connection before the response was complete. */
export class ClientGoneError extends Error {
  constructor() {
    super('The client closed the connection before the response was complete.');
    this.name = 'ClientGoneError';
  }
}

/**
 * Whether a streamed body failed because its client went away: a source that waits on request.signal
 * fails with the signal's reason (`signal.throwIfAborted()`), or with an AbortError caused by it, which is
 * how node's own APIs end a wait on an aborted signal (`setTimeout` of node:timers/promises, `events.on`).
 * That is the source stopping as asked, not a failure of the application. pipeline() may report it
 * together with the premature close of the response it was writing to, as one AggregateError.
 */
export function isClientGone(error: unknown): boolean {
  if (error instanceof AggregateError) {
    const errors: unknown[] = error.errors;
    return errors.some(isClientGone) && errors.every((each) => isClientGone(each) || (each as NodeJS.ErrnoException).code === 'ERR_STREAM_PREMATURE_CLOSE');
  }
  return error instanceof ClientGoneError || (error instanceof Error && error.name === 'AbortError' && error.cause instanceof ClientGoneError);
}

/** request.signal of a request served by node: made on first use only, as most requests never ask. */
export class ClientGoneSignal implements SignalSource {
  readonly #res: ServerResponse;

  constructor(res: ServerResponse) {
    this.#res = res;
  }

  signal(): AbortSignal {
    const res = this.#res;
    const controller = new AbortController();
    const abort = (): void => {
      if (!res.writableFinished) controller.abort(new ClientGoneError());
    };
    if (res.closed) abort();
    else res.once('close', abort);
    return controller.signal;
  }
}
