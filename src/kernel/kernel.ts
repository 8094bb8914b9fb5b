import { discardStreamedBody } from '../http/body-stream.js';
import { HttpException, isHttpException } from '../http/http-exception.js';
import type { Controller, Request, RequestType } from '../http/request.js';
import { Response } from '../http/response.js';
import { AttributeControllerResolver, type ControllerResolver } from './controller-resolver.js';
import { EventDispatcher } from './event-dispatcher.js';
import { tracedCall } from './traced-call.js';
import {
  ControllerArgumentsEvent,
  ControllerEvent,
  ExceptionEvent,
  FinishRequestEvent,
  ListenerFailure,
  RequestEvent,
  ResponseEvent,
  TerminateEvent,
  ViewEvent,
  type KernelEventName,
  type KernelEvents,
} from './events.js';
import { RequestStack } from './request-stack.js';

export interface HandleOptions {
  type?: RequestType;
  /** When false, an error escapes handle() instead of going through the exception event. */
  catch?: boolean;
}

export interface KernelOptions {
  dispatcher?: EventDispatcher;
  /** Finds each request's controller and its arguments; by default the router's, from the request's attributes. */
  resolver?: ControllerResolver;
}

/** A value now, or later when some listener or the controller was async. */
export type MaybePromise<T> = T | Promise<T>;

/**
 * Turns a Request into a Response by telling a story in events (Symfony's HttpKernel::handleRaw):
 * request → controller → controller arguments → (view) → response → finish request, with the exception
 * event when anything throws. A sub-request is another handle() call with `type: 'sub'`.
 *
 * Every step stays synchronous as long as the listeners and the controller do, and goes on in a promise
 * from the first one that returns a promise: a 404 through the error sub-request costs no tick at all.
 * handle() and terminate() always return promises; process() and finish() are their sync-first forms.
 */
export class Kernel {
  readonly dispatcher: EventDispatcher;
  readonly resolver: ControllerResolver;

  constructor({ dispatcher = new EventDispatcher(), resolver = new AttributeControllerResolver() }: KernelOptions = {}) {
    this.dispatcher = dispatcher;
    this.resolver = resolver;
  }

  handle(request: Request, options?: HandleOptions): Promise<Response> {
    try {
      return Promise.resolve(this.process(request, options));
    } catch (error) {
      return Promise.reject(error as Error);
    }
  }

  /** handle(), returning the response itself when no step was async; an uncaught error throws from here. */
  process(request: Request, { type = 'main', catch: catchErrors = true }: HandleOptions = {}): MaybePromise<Response> {
    request.type = type;
    request.stack ??= new RequestStack();
    request.stack.push(request);
    let result: MaybePromise<Response | ListenerFailure>;
    try {
      result = this.#handleRaw(request, type);
    } catch (error) {
      return this.#handleError(error, request, type, catchErrors);
    }
    // A failure is handled here, outside the try, as a thrown error is: what the error handling itself
    // throws goes to the caller, never through the error handling a second time.
    if (result instanceof Promise) {
      return result.then(
        (settled) => this.#failedOrAnswered(settled, request, type, catchErrors),
        (error: unknown) => this.#handleError(error, request, type, catchErrors),
      );
    }
    return this.#failedOrAnswered(result, request, type, catchErrors);
  }

  #failedOrAnswered(result: Response | ListenerFailure, request: Request, type: RequestType, catchErrors: boolean): MaybePromise<Response> {
    return result instanceof ListenerFailure ? this.#handleError(result.error, request, type, catchErrors) : result;
  }

  /** Runs the terminate listeners once the response has been sent. */
  async terminate(request: Request, response: Response): Promise<void> {
    await this.finish(request, response);
  }

  /** terminate(), undefined when there was nothing to wait for. */
  finish(request: Request, response: Response): Promise<void> | undefined {
    if (!this.dispatcher.hasListeners('terminate')) return undefined;
    const event = this.dispatcher.dispatchEvent('terminate', new TerminateEvent(this, request, response));
    return event instanceof Promise ? event.then(ignore) : undefined;
  }

  #handleRaw(request: Request, type: RequestType): MaybePromise<Response | ListenerFailure> {
    const event = this.dispatcher.dispatchEvent('request', new RequestEvent(this, request, type));
    return then<RequestEvent, Response | ListenerFailure>(event, (requestEvent) => {
      if (requestEvent.failure !== undefined) return requestEvent.failure;
      if (requestEvent.response !== undefined) return this.#filterResponse(requestEvent.response, request, type);
      const controller = this.resolver.resolveController(request);
      if (controller === undefined) {
        throw new HttpException(404, {
          code: 'KEEL_ERR_CONTROLLER_NOT_FOUND',
          message: controllerNotFoundMessage(request.pathInfo),
        });
      }
      if (!this.dispatcher.hasListeners('controller')) return this.#resolveArguments(controller, request, type);
      const controllerEvent = this.dispatcher.dispatchEvent('controller', new ControllerEvent(this, request, type, controller));
      return then(controllerEvent, (resolved) => this.#resolveArguments(resolved.controller, request, type));
    });
  }

  #resolveArguments(controller: Controller, request: Request, type: RequestType): MaybePromise<Response | ListenerFailure> {
    const args = this.resolver.resolveArguments(request, controller);
    if (!this.dispatcher.hasListeners('controllerArguments')) return this.#callController(controller, args, request, type);
    const event = this.dispatcher.dispatchEvent('controllerArguments', new ControllerArgumentsEvent(this, request, type, controller, args));
    return then(event, (resolved) => this.#callController(resolved.controller, resolved.args, request, type));
  }

  #callController(controller: Controller, args: unknown[], request: Request, type: RequestType): MaybePromise<Response | ListenerFailure> {
    const invoke = controller as (...args: unknown[]) => unknown;
    // Traced (the profiler's timeline), the controller's own time shows between the listeners around it.
    const tracer = this.dispatcher.tracer;
    const called =
      tracer === undefined ? settled(invoke(...args)) : tracedCall(tracer, request, request.attributes.controllerName ?? (controller.name || 'controller'), () => settled(invoke(...args)));
    return then(called, (result) => {
      if (result instanceof Response) return this.#filterResponse(result, request, type);
      const viewEvent = this.dispatcher.dispatchEvent('view', new ViewEvent(this, request, type, result));
      return then<ViewEvent, Response | ListenerFailure>(viewEvent, (view) => {
        // A view listener's fail() ends the request as its throw would.
        if (view.failure !== undefined) return view.failure;
        if (view.response === undefined) {
          // Symfony's words, with the controller named and the usual cause of an undefined said.
          const named = request.attributes.controllerName ?? (controller.name || undefined);
          throw new HttpException(500, {
            code: 'KEEL_ERR_CONTROLLER_RESULT',
            message: `The controller${named === undefined ? '' : ` "${named}"`}${request.attributes.route === undefined ? '' : ` of route "${request.attributes.route}"`} must return a "Response" object or data to send as JSON, but it returned ${describe(result)}.${result === undefined ? ' Did you forget a return statement?' : ''}`,
          });
        }
        return this.#filterResponse(view.response, request, type);
      });
    });
  }

  #filterResponse(response: Response, request: Request, type: RequestType): MaybePromise<Response> {
    // A response listener that fails has the error page replace this response: a stream it carries (an
    // open file) is let go of now, not left open for the life of the process.
    const event = this.#dispatchOrUndo('response', new ResponseEvent(this, request, type, response), discardStreamedBody, response);
    return then(event, (filtered) => {
      const finished = this.#finishRequest(request, type);
      return finished === undefined ? filtered.response : finished.then(() => filtered.response);
    });
  }

  /** Undefined when it finished synchronously. */
  #finishRequest(request: Request, type: RequestType): Promise<void> | undefined {
    if (this.dispatcher.hasListeners('finishRequest')) {
      const event = this.dispatcher.dispatchEvent('finishRequest', new FinishRequestEvent(this, request, type));
      if (event instanceof Promise) return event.then(() => leaveStack(request));
    }
    leaveStack(request);
    return undefined;
  }

  #handleError(error: unknown, request: Request, type: RequestType, catchErrors: boolean): MaybePromise<Response> {
    if (catchErrors) return this.#handleThrowable(error, request, type);
    return this.#finishAndThrow(error, request, type);
  }

  #finishAndThrow(error: unknown, request: Request, type: RequestType): never | Promise<never> {
    const finished = this.#finishRequest(request, type);
    if (finished === undefined) throw error;
    return finished.then(() => {
      throw error;
    });
  }

  #handleThrowable(error: unknown, request: Request, type: RequestType): MaybePromise<Response> {
    // An exception listener that fails ends the request all the same: off the stack, as Symfony's handle()
    // pops in a finally, so that the request below is the current one again.
    const event = this.#dispatchOrUndo('exception', new ExceptionEvent(this, request, type, error), leaveStack, request);
    return then(event, (handled) => this.#exceptionResponse(handled, request, type));
  }

  /**
   * Dispatches the event; when a listener throws or rejects, runs `undo(subject)` before the failure goes on.
   * A function and its subject, not a closure: the response event passes here on every request.
   */
  #dispatchOrUndo<K extends KernelEventName, T>(name: K, event: KernelEvents[K], undo: (subject: T) => void, subject: T): MaybePromise<KernelEvents[K]> {
    let dispatched: MaybePromise<KernelEvents[K]>;
    try {
      dispatched = this.dispatcher.dispatchEvent(name, event);
    } catch (failure) {
      undo(subject);
      throw failure;
    }
    if (!(dispatched instanceof Promise)) return dispatched;
    return dispatched.catch((failure: unknown) => {
      undo(subject);
      throw failure;
    });
  }

  #exceptionResponse(event: KernelEvents['exception'], request: Request, type: RequestType): MaybePromise<Response> {
    // An exception listener's fail() is its throw: the new error goes to the caller, not through the
    // exception event again.
    if (event.failure !== undefined) {
      leaveStack(request);
      throw event.failure.error;
    }
    const response = event.response;
    if (response === undefined) return this.#finishAndThrow(event.error, request, type);
    // The error's own status and headers win unless a listener chose an error or redirect status itself,
    // a redirect as Symfony's isRedirect() says: a 201 is kept, a 304 is not.
    if (!event.allowCustomResponseCode && !response.isClientError && !response.isServerError && !response.isRedirect) {
      if (isHttpException(event.error)) {
        response.status = event.error.status;
        // for…in, not Object.entries(): a 404's record is empty, and the entries list was made all the same.
        const headers = event.error.headers;
        for (const name in headers) if (Object.hasOwn(headers, name)) response.setHeader(name, headers[name]!);
      } else {
        response.status = 500;
      }
    }
    // A response listener failing on the error's own response sends that response unfiltered (and the
    // request leaves the stack, which finishing it would have done).
    let filtered: MaybePromise<Response>;
    try {
      filtered = this.#filterResponse(response, request, type);
    } catch {
      leaveStack(request);
      return response;
    }
    return filtered instanceof Promise
      ? filtered.catch(() => {
          leaveStack(request);
          return response;
        })
      : filtered;
  }
}

/** Goes on with `next` now when `value` is already there, or once it is. */
function then<T, U>(value: MaybePromise<T>, next: (value: T) => MaybePromise<U>): MaybePromise<U> {
  return value instanceof Promise ? value.then(next) : next(value);
}

/**
 * A controller's result as the kernel waits for it: a thenable that is not a native Promise (a query
 * builder, another promise library's promise) is awaited like one, as `await` would, instead of reaching
 * the view event as an object.
 */
function settled(result: unknown): unknown {
  if (result instanceof Promise || result === null || (typeof result !== 'object' && typeof result !== 'function')) return result;
  return typeof (result as PromiseLike<unknown>).then === 'function' ? Promise.resolve(result) : result;
}

function ignore(): void {}

/** The reference's 404 message for a request that reached no controller (a route without one). */
export function controllerNotFoundMessage(pathInfo: string): string {
  return `Unable to find the controller for path "${pathInfo}". The route is wrongly configured.`;
}

// Takes the request off its stack, where it is (a finished request has left already).
function leaveStack(request: Request): void {
  request.stack?.leave(request);
}

/**
 * What a controller returned, in the words of Symfony's HttpKernel::varToString(): a string quoted and cut at
 * 255 characters, an array by its keys. A function is named, never shown as its source.
 */
function describe(value: unknown): string {
  if (value === null) return 'null';
  if (value === undefined) return 'undefined';
  if (Array.isArray(value)) return `an array ([${Array.from({ length: Math.min(value.length, 64) }, (_, index) => `${index} => ...`).join(', ').slice(0, 255)}])`;
  // The global one, there without an import: what a controller written as a fetch handler (Hono) returns.
  if (value instanceof globalThis.Response) return "a Response of the fetch API (the global one): return keel's, imported from 'keel'";
  if (typeof value === 'object') return Object.getPrototypeOf(value) === null ? 'an object with no prototype' : `an object of type ${value.constructor?.name ?? 'Object'}`;
  if (typeof value === 'function') return value.name === '' ? 'an anonymous function' : `a function (${value.name})`;
  if (typeof value === 'string') {
    // By code points, as mb_substr counts; 512 code units hold at least 256 of them.
    const head = [...value.slice(0, 512)];
    return `a string ("${head.slice(0, 255).join('')}${head.length > 255 ? '...' : ''}")`;
  }
  if (typeof value === 'boolean') return `a boolean value (${value})`;
  return `a ${typeof value} (${String(value)})`;
}
