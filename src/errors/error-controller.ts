import { HttpException } from '../http/http-exception.js';
import type { Controller, Request } from '../http/request.js';
import { Response } from '../http/response.js';
import type { Kernel } from '../kernel/kernel.js';
import type { ErrorRenderer } from './renderers/error-renderer.js';

/**
 * The controller of the error sub-request: renders `request.attributes.exception` in the negotiated format.
 * The rendered headers go first and the Response appends Cache-Control and Date, the reference's order.
 */
export function createErrorController(renderer: ErrorRenderer): Controller {
  return function errorController(request: Request): Response {
    const { status, headers, body } = renderer.render(request.attributes.exception, request);
    return new Response(body, status, headers);
  };
}

/** A route definition, in the shape the router accepts. */
export interface ErrorRouteDefinition {
  name: string;
  path: string;
  controller: Controller;
  methods?: string[];
  requirements?: Record<string, string>;
  defaults?: Record<string, string>;
}

// PHP's \InvalidArgumentException, which Symfony's Response throws for a status it refuses: the log line,
// the page and the problem details name the error by its class.
class InvalidArgumentException extends Error {}

/**
 * `/_error/{code}.{_format}`: shows the page a visitor would get for a status, without internals
 * (Symfony's ErrorController::preview, mounted in dev). Like the reference, it hands a sample exception to
 * `errorController` in a sub-request, so the preview has its own profile (`X-Previous-Debug-Token`).
 * `/_error/404.json` shows the JSON body.
 * @example router.add(createPreviewErrorRoute(kernel, createErrorController(renderer)))
 */
export function createPreviewErrorRoute(kernel: Kernel, errorController: Controller): ErrorRouteDefinition {
  function previewErrorController(request: Request, params: Record<string, string> = {}): Response | Promise<Response> {
    const status = Number(params['code']);
    if (!Number.isInteger(status) || status < 100 || status > 599) {
      // What Symfony's Response constructor throws; it ends as a 500 through the error pipeline.
      throw new InvalidArgumentException(`The HTTP status code "${params['code']}" is not valid.`);
    }
    // A 1xx answer is interim: sent as the final one, the client would wait for the real answer.
    if (status < 200) throw new InvalidArgumentException(`The HTTP status code "${params['code']}" is informational and cannot end a response.`);
    const sub = request.duplicate({
      attributes: {
        controller: errorController,
        controllerName: 'ErrorController',
        exception: new HttpException(status, { message: 'This is a sample exception.' }),
        showException: false,
        format: params['_format'] ?? 'html',
      },
    });
    return kernel.process(sub, { type: 'sub' });
  }
  return {
    name: '_preview_error',
    path: '/_error/{code}.{_format}',
    // Error statuses only: any other code is no page a visitor could get, and a 404 as any unknown path.
    requirements: { code: '[45]\\d\\d' },
    defaults: { _format: 'html' },
    controller: previewErrorController as Controller,
  };
}
