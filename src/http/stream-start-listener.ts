import { Readable } from 'node:stream';
import type { ReadableStream as WebReadableStream } from 'node:stream/web';
import type { ResponseEvent } from '../kernel/events.js';
import type { Subscriber, Subscription } from '../kernel/event-dispatcher.js';
import { discardBodyStream, isBodyStream, isEventStream, type BodyStream } from './body-stream.js';
import type { Request } from './request.js';

type Chunk = string | Uint8Array;

/**
 * Waits for the first chunk of a main response's streamed body before the response goes on, so that a
 * source failing before it has produced anything (an export whose query fails, a file gone since it was
 * found, a NotFoundHttpException thrown by the generator) fails the request as a controller's throw does:
 * the error page with the error's status, its log line and its profile, instead of a connection cut
 * before any answer. Fastify does the same by writing a stream's head only with its first chunk. Past
 * the first chunk the head is sent, and a failure can only cut the body (see writeResponse).
 *
 * Successful answers only: an error response is the answer to an exception already, and one whose listener
 * fails is sent unfiltered (Symfony's handleThrowable), which would hide the stream's failure. A node stream
 * that already has a reader of its own (a `data` listener, a pipe the controller set up) is left as it is:
 * read ahead, its first chunk would reach that reader twice.
 *
 * After ResponseListener (0), which empties the bodies of HEAD answers, 204s and 304s and narrows a file
 * to its range, so that only what will be sent is read; before the profiler (-100), which then records the
 * answer the client gets. Server-sent events are left alone: their first event may be long in coming,
 * and the stop of the server must be able to end their wait (see ClientGoneSignal).
 */
export class StreamStartListener implements Subscriber {
  subscribedEvents(): Subscription[] {
    return [{ event: 'response', listener: this.onResponse, priority: -64, name: 'StreamStartListener.onResponse' }];
  }

  readonly onResponse = (event: ResponseEvent): Promise<void> | undefined => {
    const { response } = event;
    const body = response.body;
    if (!event.isMainRequest || !isBodyStream(body) || response.status < 200 || response.status > 299) return undefined;
    if (isEventStream(response) || (body instanceof Readable && body.listenerCount('data') > 0)) return undefined;
    return startedBody(body, event.request).then(
      (started) => {
        response.body = started;
      },
      (error: unknown) => {
        // Let go of already (startedBody did): the kernel would otherwise discard the body again, and an
        // iterable discarded is opened anew to be returned.
        response.body = '';
        throw error;
      },
    );
  };
}

/**
 * The body with its first chunk in hand: a node stream with the chunk put back in front, any other source
 * as an iterable that gives that chunk first. Rejects with the source's error when it fails first. A
 * client gone meanwhile lets go of the source and leaves an empty body: nobody is there to read it.
 */
function startedBody(body: BodyStream, request: Request): Promise<BodyStream | string> {
  // A web stream through node's adapter, as writeResponse would send it (see sendStream).
  const source = body instanceof ReadableStream ? Readable.fromWeb(body as WebReadableStream) : body;
  // The one iterator of an iterable: the one to return(), where discarding the iterable would open another
  // (a second query of a cursor) only to close it.
  const iterator = source instanceof Readable ? undefined : source[Symbol.asyncIterator]();
  const release = (): void => {
    if (iterator === undefined) discardBodyStream(source);
    else void Promise.resolve(iterator.return?.()).catch(() => undefined);
  };
  return new Promise((resolve, reject) => {
    const signal = request.signal;
    let settled = false;
    const settle = (outcome: () => void): void => {
      if (settled) return;
      settled = true;
      signal.removeEventListener('abort', gone);
      outcome();
    };
    const gone = (): void =>
      settle(() => {
        release();
        resolve('');
      });
    if (signal.aborted) return gone();
    signal.addEventListener('abort', gone);
    const started = iterator === undefined ? firstChunkOf(source as Readable).then(() => source) : firstResultOf(iterator);
    started.then(
      (ready) => settle(() => resolve(ready)),
      (error: unknown) =>
        settle(() => {
          release();
          // A source that stopped on request.signal (the client left) has failed nobody.
          if (signal.aborted) resolve('');
          else reject(error);
        }),
    );
  });
}

/** Resolves once the stream has a chunk buffered (put back after it was read) or has ended; rejects if it fails first. */
function firstChunkOf(source: Readable): Promise<void> {
  if (source.errored !== null) return Promise.reject(source.errored);
  if (source.readableEnded) return Promise.resolve();
  if (source.destroyed) return Promise.reject(prematureClose());
  return new Promise((resolve, reject) => {
    // The error listener stays: a paused stream can still fail before writeResponse pipes it, and an
    // 'error' nobody listens to ends the process. pipeline() reads the failure from the stream all the same.
    const done = (error?: unknown): void => {
      source.off('data', onData);
      source.off('end', onEnd);
      source.off('close', onClose);
      if (error === undefined) resolve();
      else reject(error);
    };
    const onData = (chunk: Chunk): void => {
      source.pause();
      // A string read from a stream with an encoding (setEncoding('hex')) is in that encoding: put back
      // without it, it would be taken for UTF-8 and encoded a second time.
      if (typeof chunk === 'string' && source.readableEncoding !== null) source.unshift(chunk, source.readableEncoding);
      else source.unshift(chunk);
      done();
    };
    const onEnd = (): void => done();
    const onError = (error: unknown): void => done(error);
    // Destroyed without an error before it ended: it gave up.
    const onClose = (): void => done(source.errored ?? prematureClose());
    source.on('data', onData);
    source.once('end', onEnd);
    source.on('error', onError);
    source.once('close', onClose);
    // A stream paused by its maker would not start for a data listener alone.
    source.resume();
  });
}

function prematureClose(): Error {
  return Object.assign(new Error('The response body stream closed before it produced anything.'), { code: 'ERR_STREAM_PREMATURE_CLOSE' });
}

/** Any other source: its first step taken, then given back first by an iterable that goes on with the rest. */
async function firstResultOf(iterator: AsyncIterator<Chunk>): Promise<AsyncIterable<Chunk>> {
  return new StartedChunks(await iterator.next(), iterator);
}

/**
 * A source whose first step has been taken. Its return() reaches the source (a generator's `finally`, a file
 * stream's close) whether or not iteration started, unlike an async generator wrapped around it.
 */
class StartedChunks implements AsyncIterable<Chunk>, AsyncIterator<Chunk> {
  #first: IteratorResult<Chunk> | undefined;
  readonly #rest: AsyncIterator<Chunk>;

  constructor(first: IteratorResult<Chunk>, rest: AsyncIterator<Chunk>) {
    this.#first = first;
    this.#rest = rest;
  }

  [Symbol.asyncIterator](): AsyncIterator<Chunk> {
    return this;
  }

  next(): Promise<IteratorResult<Chunk>> {
    const first = this.#first;
    if (first === undefined) return this.#rest.next();
    this.#first = undefined;
    return Promise.resolve(first);
  }

  return(value?: unknown): Promise<IteratorResult<Chunk>> {
    this.#first = undefined;
    return this.#rest.return === undefined ? Promise.resolve({ done: true, value: undefined }) : this.#rest.return(value);
  }
}
