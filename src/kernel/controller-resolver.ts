import type { Controller, Request } from '../http/request.js';

/** Finds the controller for a request and the arguments to call it with. */
export interface ControllerResolver {
  resolveController(request: Request): Controller | undefined;
  resolveArguments(request: Request, controller: Controller): unknown[];
}

/**
 * Reads the controller the router put in the request attributes and calls it with the request, the
 * route parameters and `context` (createApp gives its App): `(request, params, context)`.
 */
export class AttributeControllerResolver implements ControllerResolver {
  /** What controllers get as their third argument: createApp sets its App here once built. */
  context: unknown;

  resolveController(request: Request): Controller | undefined {
    return request.attributes.controller;
  }

  resolveArguments(request: Request): unknown[] {
    return [request, request.attributes.routeParams ?? {}, this.context];
  }
}
