import type { ErrorCode } from '../http/error-codes.js';

/**
 * No route matches the path (Symfony's ResourceNotFoundException). The message names the last path the
 * matcher tried, which is the alternate path when the trailing-slash retry ran:
 * `No routes found for "/robots.txt/".`
 */
export class ResourceNotFoundError extends Error {
  readonly code: ErrorCode = 'KEEL_ERR_ROUTE_NOT_FOUND';
  /** The raw (still percent-encoded) path tried last. */
  readonly path: string;
  /**
   * True when the path is `/` and the table has nothing that even comes close (Symfony's
   * NoConfigurationException): a debug front end may answer with a welcome page instead of an error page.
   */
  readonly noConfiguration: boolean;

  constructor(path: string, { noConfiguration = false }: { noConfiguration?: boolean } = {}) {
    // Symfony's NoConfigurationException carries no message.
    super(noConfiguration ? '' : `No routes found for "${path}".`);
    this.name = 'ResourceNotFoundError';
    this.path = path;
    this.noConfiguration = noConfiguration;
  }
}

/**
 * A route matches the path but not the method (Symfony's MethodNotAllowedException). Its message is empty,
 * as the reference's is: the router listener composes the one users see.
 */
export class MethodNotAllowedError extends Error {
  readonly code: ErrorCode = 'KEEL_ERR_ROUTE_METHOD_NOT_ALLOWED';
  /** Methods declared by the routes that matched the path, in route order, first occurrence kept. */
  readonly allow: readonly string[];

  constructor(allow: readonly string[]) {
    super('');
    this.name = 'MethodNotAllowedError';
    this.allow = allow;
  }
}

/** A route definition is invalid: thrown when the route is added, so a bad table fails at start-up. */
export class RouteDefinitionError extends Error {
  readonly code: ErrorCode = 'KEEL_ERR_ROUTE_INVALID';
  readonly route: string;

  constructor(route: string, problem: string) {
    super(`Route "${route}" is invalid: ${problem}`);
    this.name = 'RouteDefinitionError';
    this.route = route;
  }
}

export function isRoutingError(error: unknown): error is ResourceNotFoundError | MethodNotAllowedError {
  return error instanceof ResourceNotFoundError || error instanceof MethodNotAllowedError;
}

/**
 * A URL cannot be generated: unknown route, missing parameter, or a value its requirement refuses.
 * A programming error, so it is never turned into a 4xx.
 */
export class UrlGenerationError extends Error {
  readonly code = 'KEEL_ERR_ROUTE_GENERATION';

  constructor(message: string) {
    super(message);
    this.name = 'UrlGenerationError';
  }
}
