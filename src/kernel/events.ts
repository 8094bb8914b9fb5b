import type { Controller, Request, RequestType } from '../http/request.js';
import type { Response } from '../http/response.js';
import type { Kernel } from './kernel.js';

/**
 * Base of every kernel event: the request being handled, whether it is the main request or a
 * sub-request, and propagation control. Listeners run by descending priority until one stops it.
 */
export class KernelEvent {
  #stopped = false;

  // Declared, assigned by the constructor: a class field would be defined empty first, on every event made.
  declare readonly kernel: Kernel;
  declare readonly request: Request;
  declare readonly requestType: RequestType;

  constructor(
    kernel: Kernel,
    request: Request,
    requestType: RequestType,
  ) {
    this.kernel = kernel;
    this.request = request;
    this.requestType = requestType;
  }

  get isMainRequest(): boolean {
    return this.requestType === 'main';
  }

  get isPropagationStopped(): boolean {
    return this.#stopped;
  }

  stopPropagation(): void {
    this.#stopped = true;
  }
}

/** The error a request listener ended the request with (see RequestEvent.fail). */
export class ListenerFailure {
  declare readonly error: unknown;

  constructor(error: unknown) {
    this.error = error;
  }
}

/**
 * A listener may answer early (the router's redirect) by setting a response, or end the request with an
 * error (the router's 404 and 405, a rate limiter's 429) by failing it.
 */
export class RequestEvent extends KernelEvent {
  #response: Response | undefined;
  #failure: ListenerFailure | undefined;

  get response(): Response | undefined {
    return this.#response;
  }

  get failure(): ListenerFailure | undefined {
    return this.#failure;
  }

  setResponse(response: Response): void {
    this.#response = response;
    this.stopPropagation();
  }

  /**
   * Ends the request with `error` exactly as if the listener had thrown it: no later listener runs, and the
   * kernel hands the error to the exception event (or, for a sub-request that does not catch, to the
   * caller). A failure wins over a response set before it. Cheaper than a throw, for which V8 builds a
   * message object and walks the stack: a 404 spent about a third of its time there. The view and
   * exception events inherit it with the same meaning: from an exception listener, as from its throw, the
   * new error goes to the caller instead of through the exception event again.
   */
  fail(error: unknown): void {
    this.#failure = new ListenerFailure(error);
    this.stopPropagation();
  }
}

export class ControllerEvent extends KernelEvent {
  declare controller: Controller;

  constructor(kernel: Kernel, request: Request, requestType: RequestType, controller: Controller) {
    super(kernel, request, requestType);
    this.controller = controller;
  }
}

export class ControllerArgumentsEvent extends KernelEvent {
  declare controller: Controller;
  declare args: unknown[];

  constructor(
    kernel: Kernel,
    request: Request,
    requestType: RequestType,
    controller: Controller,
    args: unknown[],
  ) {
    super(kernel, request, requestType);
    this.controller = controller;
    this.args = args;
  }
}

/** Dispatched when the controller returned something other than a Response. */
export class ViewEvent extends RequestEvent {
  declare readonly controllerResult: unknown;

  constructor(kernel: Kernel, request: Request, requestType: RequestType, controllerResult: unknown) {
    super(kernel, request, requestType);
    this.controllerResult = controllerResult;
  }
}

export class ResponseEvent extends KernelEvent {
  declare response: Response;

  constructor(kernel: Kernel, request: Request, requestType: RequestType, response: Response) {
    super(kernel, request, requestType);
    this.response = response;
  }
}

export class ExceptionEvent extends RequestEvent {
  /** When true, the kernel keeps the response's status even if it is not an error status. */
  allowCustomResponseCode = false;

  declare error: unknown;

  constructor(kernel: Kernel, request: Request, requestType: RequestType, error: unknown) {
    super(kernel, request, requestType);
    this.error = error;
  }
}

export class FinishRequestEvent extends KernelEvent {}

/** Dispatched after the response has been sent: slow work (saving profiles) goes here. */
export class TerminateEvent extends KernelEvent {
  declare readonly response: Response;

  constructor(kernel: Kernel, request: Request, response: Response) {
    super(kernel, request, 'main');
    this.response = response;
  }
}

/** Event name → event class: the kernel's whole vocabulary, checked at compile time. */
export interface KernelEvents {
  request: RequestEvent;
  controller: ControllerEvent;
  controllerArguments: ControllerArgumentsEvent;
  view: ViewEvent;
  response: ResponseEvent;
  exception: ExceptionEvent;
  finishRequest: FinishRequestEvent;
  terminate: TerminateEvent;
}

export type KernelEventName = keyof KernelEvents;
