import { HttpException, isHttpException } from '../http/http-exception.js';
import type { Request, RequestType } from '../http/request.js';
import { Response } from '../http/response.js';
import { AttributeControllerResolver, type ControllerResolver } from './controller-resolver.js';
import { EventDispatcher } from './event-dispatcher.js';
import {
  ControllerArgumentsEvent,
  ControllerEvent,
  ExceptionEvent,
  FinishRequestEvent,
  RequestEvent,
  ResponseEvent,
  TerminateEvent,
  ViewEvent,
} from './events.js';
import { RequestStack } from './request-stack.js';

export interface HandleOptions {
  type?: RequestType;
  /** When false, an error escapes handle() instead of going through the exception event. */
  catch?: boolean;
}

/**
 * Turns a Request into a Response by telling a story in events (Symfony's HttpKernel::handleRaw):
 * request → controller → controller arguments → (view) → response → finish request, with the exception
 * event when anything throws. A sub-request is another handle() call with `type: 'sub'`.
 */
export class Kernel {
  readonly dispatcher: EventDispatcher;
  readonly resolver: ControllerResolver;

  constructor({ dispatcher = new EventDispatcher(), resolver = new AttributeControllerResolver() } = {}) {
    this.dispatcher = dispatcher;
    this.resolver = resolver;
  }

  async handle(request: Request, { type = 'main', catch: catchErrors = true }: HandleOptions = {}): Promise<Response> {
    request.type = type;
    request.stack ??= new RequestStack();
    request.stack.push(request);
    try {
      return await this.#handleRaw(request, type);
    } catch (error) {
      if (!catchErrors) {
        await this.#finishRequest(request, type);
        throw error;
      }
      return await this.#handleThrowable(error, request, type);
    }
  }

  /** Runs the terminate listeners once the response has been sent. */
  async terminate(request: Request, response: Response): Promise<void> {
    if (!this.dispatcher.hasListeners('terminate')) return;
    await this.dispatcher.dispatch('terminate', new TerminateEvent(this, request, response));
  }

  // Events go through dispatchEvent(), awaited only when a listener was async, and events nobody listens
  // to are not created: a request whose listeners are all sync runs without extra ticks.
  async #handleRaw(request: Request, type: RequestType): Promise<Response> {
    const { dispatcher } = this;
    let requestEvent = dispatcher.dispatchEvent('request', new RequestEvent(this, request, type));
    if (requestEvent instanceof Promise) requestEvent = await requestEvent;
    if (requestEvent.response !== undefined) return this.#filterResponse(requestEvent.response, request, type);

    let controller = this.resolver.resolveController(request);
    if (controller === undefined) {
      throw new HttpException(404, {
        code: 'KEEL_ERR_CONTROLLER_NOT_FOUND',
        message: `Unable to find the controller for path "${request.pathInfo}". The route is wrongly configured.`,
      });
    }
    if (dispatcher.hasListeners('controller')) {
      let controllerEvent = dispatcher.dispatchEvent('controller', new ControllerEvent(this, request, type, controller));
      if (controllerEvent instanceof Promise) controllerEvent = await controllerEvent;
      controller = controllerEvent.controller;
    }
    let args = this.resolver.resolveArguments(request, controller);
    if (dispatcher.hasListeners('controllerArguments')) {
      let argsEvent = dispatcher.dispatchEvent('controllerArguments', new ControllerArgumentsEvent(this, request, type, controller, args));
      if (argsEvent instanceof Promise) argsEvent = await argsEvent;
      controller = argsEvent.controller;
      args = argsEvent.args;
    }

    let result = (controller as (...args: unknown[]) => unknown)(...args);
    if (result instanceof Promise) result = await result;
    if (!(result instanceof Response)) {
      let viewEvent = dispatcher.dispatchEvent('view', new ViewEvent(this, request, type, result));
      if (viewEvent instanceof Promise) viewEvent = await viewEvent;
      if (viewEvent.response === undefined) {
        throw new HttpException(500, {
          code: 'KEEL_ERR_CONTROLLER_RESULT',
          message: `The controller must return a "Response" object but it returned ${describe(result)}.`,
        });
      }
      result = viewEvent.response;
    }
    return this.#filterResponse(result as Response, request, type);
  }

  #filterResponse(response: Response, request: Request, type: RequestType): Response | Promise<Response> {
    const event = this.dispatcher.dispatchEvent('response', new ResponseEvent(this, request, type, response));
    if (event instanceof Promise) return event.then((filtered) => this.#afterResponse(filtered, request, type));
    return this.#afterResponse(event, request, type);
  }

  #afterResponse(event: ResponseEvent, request: Request, type: RequestType): Response | Promise<Response> {
    const finished = this.#finishRequest(request, type);
    return finished === undefined ? event.response : finished.then(() => event.response);
  }

  /** Undefined when it finished synchronously. */
  #finishRequest(request: Request, type: RequestType): Promise<void> | undefined {
    if (this.dispatcher.hasListeners('finishRequest')) {
      const event = this.dispatcher.dispatchEvent('finishRequest', new FinishRequestEvent(this, request, type));
      if (event instanceof Promise) return event.then(() => void request.stack?.pop());
    }
    request.stack?.pop();
    return undefined;
  }

  async #handleThrowable(error: unknown, request: Request, type: RequestType): Promise<Response> {
    let event = this.dispatcher.dispatchEvent('exception', new ExceptionEvent(this, request, type, error));
    if (event instanceof Promise) event = await event;
    const response = event.response;
    if (response === undefined) {
      await this.#finishRequest(request, type);
      throw event.error;
    }
    // The error's own status and headers win unless a listener chose an error or redirect status itself.
    if (!event.allowCustomResponseCode && !response.isClientError && !response.isServerError && !response.isRedirection) {
      if (isHttpException(event.error)) {
        response.status = event.error.status;
        for (const [name, value] of Object.entries(event.error.headers)) response.setHeader(name, value);
      } else {
        response.status = 500;
      }
    }
    try {
      return await this.#filterResponse(response, request, type);
    } catch {
      return response;
    }
  }
}

function describe(value: unknown): string {
  if (value === null) return 'null';
  if (value === undefined) return 'undefined';
  if (typeof value === 'object') return `an object of type ${value.constructor?.name ?? 'Object'}`;
  return `a ${typeof value} (${String(value).slice(0, 50)})`;
}
