/**
 * A response body produced over time rather than held in memory: a node Readable (a file's
 * `createReadStream`), a web ReadableStream, or any async iterable of chunks (an async generator writing
 * server-sent events). Symfony's StreamedResponse and BinaryFileResponse, in the shape node already has.
 */
export type BodyStream = AsyncIterable<string | Uint8Array>;

export function isBodyStream(value: unknown): value is BodyStream {
  return typeof value === 'object' && value !== null && typeof (value as Partial<BodyStream>)[Symbol.asyncIterator] === 'function';
}

/**
 * Lets go of a stream that will not be sent (the answer to a HEAD request, a 204, a response replaced by an
 * error page): a file stream closes its descriptor now instead of whenever the collector finds it.
 */
export function discardBodyStream(stream: BodyStream): void {
  const { destroy, cancel, on } = stream as { destroy?: unknown; cancel?: unknown; on?: unknown };
  if (typeof destroy === 'function') {
    // A node stream may still fail as it goes (a file stream whose open() was pending fails with ENOENT):
    // with no listener, node throws that error and the process ends. Nobody reads the stream any more.
    if (typeof on === 'function') (on as (event: string, listener: () => void) => void).call(stream, 'error', ignoreError);
    (destroy as () => void).call(stream);
  } else if (typeof cancel === 'function') {
    // A web ReadableStream: cancel() rejects when the stream is locked, which changes nothing here.
    void Promise.resolve((cancel as () => unknown).call(stream)).catch(() => undefined);
  } else {
    // An async generator (or another iterable) not started: return() ends it without running its body.
    void Promise.resolve(stream[Symbol.asyncIterator]().return?.()).catch(() => undefined);
  }
}

function ignoreError(): void {}

/** Lets go of a response's body if it is a stream that will not be sent (see discardBodyStream). */
export function discardStreamedBody(response: { body: unknown }): void {
  if (isBodyStream(response.body)) discardBodyStream(response.body);
}

/** Whether a response's body is server-sent events (`text/event-stream`): a stream that may never end. */
export function isEventStream(response: { headers: { get(name: string): string | undefined } }): boolean {
  return EVENT_STREAM.test(response.headers.get('content-type') ?? '');
}

const EVENT_STREAM = /^text\/event-stream\b/i;
