import type { Controller, Request } from '../http/request.js';

/** Finds the controller for a request and the arguments to call it with. */
export interface ControllerResolver {
  resolveController(request: Request): Controller | undefined;
  resolveArguments(request: Request, controller: Controller): unknown[];
}

/**
 * Reads the controller the router put in the request attributes and calls it with the request and the
 * route parameters: `(request, params)`.
 */
export class AttributeControllerResolver implements ControllerResolver {
  resolveController(request: Request): Controller | undefined {
    return request.attributes.controller;
  }

  resolveArguments(request: Request): unknown[] {
    return [request, request.attributes.routeParams ?? {}];
  }
}
