import { basename } from 'node:path';
import { type HttpException, isHttpException } from '../http/http-exception.js';
import type { Controller } from '../http/request.js';
import type { Response } from '../http/response.js';
import type { ExceptionEvent, ResponseEvent } from '../kernel/events.js';
import type { Subscriber, Subscription } from '../kernel/event-dispatcher.js';
import { interpolate } from '../logging/interpolate.js';
import { LOG_MESSAGES } from '../logging/log-messages.js';
import { literalMessage, type Logger } from '../logging/logger.js';
import { isError } from '../internal/is-error.js';
import { createFlatError, MAX_CHAIN } from './flat-error.js';

// The body reads cut short by no fault of the application, by their error's code (see logKernelException).
// A Map: an application's own code (`constructor`, `toString`) must not find an object's inherited member.
const CUT_OFF_MESSAGES = new Map<string | undefined, string>([
  ['KEEL_ERR_SERVER_STOPPING', LOG_MESSAGES.requestCutOffByStop],
  ['KEEL_ERR_CLIENT_GONE', LOG_MESSAGES.requestCutOffByClient],
]);

export interface ErrorListenerOptions {
  logger: Logger;
  debug: boolean;
  /** The error controller (see createErrorController). */
  controller: Controller;
  /** Statuses not worth a log line (prod: [404, 405], like the reference's excluded_http_codes). */
  skipLogStatuses?: readonly number[];
}

/**
 * Symfony's ErrorListener. On `exception`: logs the error (priority 0), then renders it through a
 * sub-request to the error controller (priority -128, so other listeners may answer first). On
 * `response`: in debug, drops the Content-Security-Policy of a rendered error so the page's styles apply.
 */
export class ErrorListener implements Subscriber {
  readonly #logger: Logger;
  readonly #debug: boolean;
  readonly #controller: Controller;
  readonly #skipLogStatuses: ReadonlySet<number>;

  constructor({ logger, debug, controller, skipLogStatuses = [] }: ErrorListenerOptions) {
    this.#logger = logger.channel('request');
    this.#debug = debug;
    this.#controller = controller;
    this.#skipLogStatuses = new Set(skipLogStatuses);
  }

  subscribedEvents(): Subscription[] {
    return [
      { event: 'exception', listener: this.logKernelException, priority: 0, name: 'ErrorListener.logKernelException' },
      { event: 'exception', listener: this.onKernelException, priority: -128, name: 'ErrorListener.onKernelException' },
      { event: 'response', listener: this.removeCspHeader, priority: -128, name: 'ErrorListener.removeCspHeader' },
    ];
  }

  readonly logKernelException = (event: ExceptionEvent): void => {
    // The status createFlatError would give, known without flattening: a skipped 404 costs nothing.
    if (this.#skipLogStatuses.has(isHttpException(event.error) ? event.error.status : 500)) return;
    // A body read cut off by the end of a stop's grace period, or by its client going away (see
    // NodeRequestBody): no failure of the application, and an answer no one is likely to read. Told by
    // keel's own stable codes, which only those cuts give, so that ERROR and CRITICAL lines still mean
    // something to act on (a PHP application never sees either: the web server reads the body first). Logged
    // as the server's own lines are, not held back with the request's: in prod those are dropped unless an
    // error comes (fingers crossed), and how many uploads were cut is worth knowing.
    const cutOff = isHttpException(event.error) ? CUT_OFF_MESSAGES.get(event.error.code) : undefined;
    if (cutOff !== undefined) {
      this.#logger.log('notice', cutOff, { code: (event.error as HttpException).code, method: event.request.method, request_uri: event.request.pathInfo });
      return;
    }
    // Flattened as the error page will flatten it (debug or not): both share one FlatError and its parsed stack.
    const flat = createFlatError(event.error, { debug: this.#debug });
    const level = levelOf(event.error);
    const message = interpolate(LOG_MESSAGES.uncaughtException, {
      class: flat.class,
      message: flat.message,
      file: basename(flat.file),
      line: flat.line,
    });
    // Filled once: the message holds the URL, and a client's `/{exception}` must stay what it requested.
    this.#logger.log(level, message, literalMessage({ exception: event.error }), event.request);
  };

  // Sync-first like the kernel: when the error page renders without waiting, the 404 costs no tick.
  readonly onKernelException = (event: ExceptionEvent): void | Promise<void> => {
    const request = event.request;
    const sub = request.duplicate({
      // The request's format goes along, as Symfony's duplicate() keeps `_format`: a route's `_format` (or a
      // format a listener set) decides the error body too.
      attributes: { controller: this.#controller, controllerName: 'ErrorController', exception: event.error, format: request.attributes.format },
      method: 'GET',
    });
    let response: Response | Promise<Response>;
    try {
      response = event.kernel.process(sub, { type: 'sub', catch: false });
    } catch (failure) {
      return this.#failedToRender(event, failure);
    }
    if (response instanceof Promise) {
      return response.then(
        (rendered) => this.#rendered(event, rendered),
        (failure: unknown) => this.#failedToRender(event, failure),
      );
    }
    this.#rendered(event, response);
  };

  #rendered(event: ExceptionEvent, response: Response): void {
    event.setResponse(response);
    if (this.#debug) event.request.attributes.removeCspHeaders = true;
  }

  /**
   * The error page itself failed: logged as the reference does (at the failure's level), and the failure goes
   * on up with the original error at the end of its causes, as Symfony's listener rethrows it: what answers
   * then (the debug page of a kernel failure) shows what broke the error page, and the error behind it.
   */
  #failedToRender(event: ExceptionEvent, failure: unknown): never {
    const flat = createFlatError(failure);
    const message = interpolate(LOG_MESSAGES.exceptionWhileHandling, {
      class: flat.class,
      message: flat.message,
      file: flat.file,
      line: flat.line,
    });
    this.#logger.log(levelOf(failure), message, literalMessage({ exception: failure }), event.request);
    chainOriginal(failure, event.error);
    throw failure;
  }

  readonly removeCspHeader = (event: ResponseEvent): void => {
    if (this.#debug && event.request.attributes.removeCspHeaders === true) {
      event.response.headers.delete('Content-Security-Policy');
    }
  };
}

// Symfony's resolveLogLevel(): ERROR for client errors, CRITICAL for server errors and anything that is not an HTTP error.
function levelOf(error: unknown): 'error' | 'critical' {
  return isHttpException(error) && error.status < 500 ? 'error' : 'critical';
}

/**
 * Makes `original` the cause of the last error of `failure`'s cause chain, unless the chain holds it already
 * (Symfony sets the innermost previous exception so). A failure that is no error, or whose last error refuses
 * the property (frozen), is left as it is: its log line named it beside the original's.
 */
function chainOriginal(failure: unknown, original: unknown): void {
  let last = failure;
  for (let depth = 0; depth < MAX_CHAIN; depth++) {
    if (last === original || !isError(last)) return;
    let cause: unknown;
    try {
      cause = last.cause;
    } catch {
      return;
    }
    if (cause === undefined || cause === null) {
      try {
        Object.defineProperty(last, 'cause', { value: original, writable: true, configurable: true });
      } catch {
        // Frozen, or a proxy that refuses it.
      }
      return;
    }
    last = cause;
  }
}
