import type { IncomingMessage, ServerResponse } from 'node:http';
import type { TLSSocket } from 'node:tls';
import { discardStreamedBody, isEventStream } from '../http/body-stream.js';
import { Request, type OriginResolver } from '../http/request.js';
import type { Response } from '../http/response.js';
import type { Kernel } from '../kernel/kernel.js';
import { ClientGoneSignal, markEventStream, STOPPING_EVENT } from './client-gone-signal.js';
import { answerFailure, type FailurePage } from './failure-answer.js';
import { closeIfContinueOwed, NodeRequestBody } from './node-request-body.js';
import { guarded } from './guarded-report.js';
import { localHostOf, normaliseAddress } from './socket-address.js';
import { type SendTimeoutHandler, watchSending } from './send-timeout.js';
import { writeResponse } from './write-response.js';

export interface NodeAdapterOptions {
  resolveOrigin?: OriginResolver;
  /** Largest request body read into memory, in bytes. */
  bodyLimit?: number;
  /** Called when the kernel itself fails (a listener threw outside the error pipeline). */
  onFatal?: (error: unknown, request: Request) => void;
  /** Called when a streamed body fails after its headers were sent (its connection is then cut). */
  onStreamError?: (error: unknown, request: Request) => void;
  /** The page of a failure outside the error pipeline (in debug, the exception page); plain text without. */
  failurePage?: FailurePage;
  /**
   * Resets the connection of a response it has accepted nothing more of for this long, in ms (nginx's
   * send_timeout); undefined: never. Only a response the socket could not take at once is watched.
   */
  sendTimeout?: number;
  /** Called when a response is cut for its send timeout, before its connection is closed. */
  onSendTimeout?: SendTimeoutHandler;
}

export interface RequestListener {
  (req: IncomingMessage, res: ServerResponse): void;
  /**
   * Resolves once every request handled so far has finished, terminate listeners included; a response
   * still being made whose connection is gone is not waited for.
   */
  settle(): Promise<void>;
  /**
   * The server begins to stop: the responses being streamed, and any that starts streaming from now on,
   * abort their request.signal with a ServerStoppingError, so that their sources end (see ClientGoneSignal).
   */
  stopStreams(): void;
}

/**
 * Builds the `node:http` request listener that feeds the kernel and writes its responses. Requests read
 * their headers from `req.rawHeaders` (see HeaderLines), not from node's `req.headers` record.
 */
export function createRequestListener(kernel: Kernel, { resolveOrigin, bodyLimit = 1024 * 1024, onFatal: reportFatal, onStreamError: reportStreamError, failurePage, sendTimeout, onSendTimeout: reportSendTimeout }: NodeAdapterOptions = {}): RequestListener {
  const onFatal = guarded(reportFatal);
  const onStreamError = guarded(reportStreamError);
  // Called from a timer: a throw there would also leave the late client's connection open.
  const onSendTimeout = guarded(reportSendTimeout);
  // What is still under way, and for a response still being made, its connection: see settle().
  const inFlight = new Map<Promise<void>, ServerResponse | undefined>();
  // Responses whose body is being streamed; those of server-sent events are told to end at a stop (stopStreams).
  const streams = new Set<ServerResponse>();
  let stopping = false;
  const isStopping = (): boolean => stopping;
  const track = (pending: Promise<void>, res?: ServerResponse): void => {
    inFlight.set(pending, res);
    pending.finally(() => inFlight.delete(pending)).catch(() => undefined);
  };
  const fail = (res: ServerResponse, request: Request, error: unknown): void => {
    onFatal?.(error, request);
    closeIfContinueOwed(res);
    answerFailure(res, error, request, failurePage);
  };
  // Sync-first (see Kernel.process): a request whose listeners and controller are all sync is answered,
  // and its terminate listeners run, in the same turn, without a promise; only what really waits is tracked.
  // Terminate listeners (profile persistence) run after the bytes are handed to the socket: the whole
  // body's, for a stream.
  const terminate = (request: Request, response: Response): void => {
    let finished: Promise<void> | undefined;
    try {
      finished = kernel.finish(request, response);
    } catch (error) {
      onFatal?.(error, request);
      return;
    }
    if (finished !== undefined) track(finished.catch((error: unknown) => onFatal?.(error, request)));
  };
  const respond = (res: ServerResponse, request: Request, response: Response): void => {
    let streaming: Promise<void> | undefined;
    try {
      streaming = writeResponse(res, request, response);
    } catch (error) {
      // The 500 replaces it: a stream it carried (an open file) is let go of.
      discardStreamedBody(response);
      fail(res, request, error);
      return;
    }
    // A body the socket took whole is the kernel's to send: only what waits for the client is watched.
    // A stream's watch is stopped here when it settles; any other's by the response's close.
    const stopWatching = sendTimeout !== undefined && (streaming !== undefined || res.writableLength > 0) ? watchSending(res, request, sendTimeout, onSendTimeout, streaming !== undefined) : undefined;
    if (streaming === undefined) {
      terminate(request, response);
      return;
    }
    if (isEventStream(response)) markEventStream(res);
    streams.add(res);
    if (stopping) res.emit(STOPPING_EVENT);
    track(
      streaming.finally(() => {
        streams.delete(res);
        stopWatching?.();
      }).then(
        () => terminate(request, response),
        (error: unknown) => {
          onStreamError?.(error, request);
          terminate(request, response);
        },
      ),
    );
  };
  const listener = (req: IncomingMessage, res: ServerResponse): void => {
    const request = createRequest(req, resolveOrigin, bodyLimit, res, isStopping);
    let response: Response | Promise<Response>;
    try {
      response = kernel.process(request);
    } catch (error) {
      fail(res, request, error);
      return;
    }
    if (!(response instanceof Promise)) {
      respond(res, request, response);
      return;
    }
    // Inline callbacks, not named closures: tsx keeps function names by wrapping every named function
    // expression in a defineProperty call, which a per-request closure pays on every request.
    track(
      response.then(
        (answer) => respond(res, request, answer),
        (error: unknown) => fail(res, request, error),
      ),
      res,
    );
  };
  // A response still being made whose connection is gone (a stop cut it at its grace period) is not waited
  // for: its controller may never settle, and nothing it makes can be sent. What is sent is waited for, its
  // terminate listeners (the profile's writing) included.
  const settle = (): Promise<void> =>
    Promise.allSettled([...inFlight].map(([pending, res]) => (res === undefined ? pending : Promise.race([pending, connectionGone(res)])))).then(() => undefined);
  const stopStreams = (): void => {
    stopping = true;
    for (const res of streams) res.emit(STOPPING_EVENT);
  };
  return Object.assign(listener, { settle, stopStreams });
}

function connectionGone(res: ServerResponse): Promise<void> {
  return new Promise((resolve) => (res.closed ? resolve() : res.once('close', () => resolve())));
}

export function createRequest(req: IncomingMessage, resolveOrigin: OriginResolver | undefined, bodyLimit: number, res?: ServerResponse, stopping = NOT_STOPPING): Request {
  const socket = req.socket;
  const request = new Request({
    method: req.method ?? 'GET',
    target: req.url ?? '/',
    // The lines only: the record is built if something reads more than single headers (see HeaderLines).
    headers: req,
    remoteAddress: normaliseAddress(socket.remoteAddress),
    remotePort: socket.remotePort ?? 0,
    // node asks the kernel once per connection and keeps the answer.
    localPort: socket.localPort,
    encrypted: (socket as TLSSocket).encrypted === true,
    httpVersion: req.httpVersion,
    body: new NodeRequestBody(req, bodyLimit),
    resolveOrigin,
    // An object, not an arrow: tsx names every arrow put in an object with a defineProperty call, which a
    // per-request closure would pay on every request.
    signal: res === undefined ? undefined : new ClientGoneSignal(res, stopping),
  });
  request.localHost = localHostOf(socket);
  return request;
}

const NOT_STOPPING = (): boolean => false;
