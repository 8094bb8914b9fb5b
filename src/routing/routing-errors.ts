import type { ErrorCode } from '../http/error-codes.js';

/**
 * No route matches the path. Named as Symfony's, since the error page, the log line and the profiler show
 * the class where users of the reference look for it. The message names the last path the
 * matcher tried, which is the alternate path when the trailing-slash retry ran:
 * `No routes found for "/robots.txt/".`
 */
export class ResourceNotFoundException extends Error {
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
    this.name = 'ResourceNotFoundException';
    this.path = path;
    this.noConfiguration = noConfiguration;
  }
}

/**
 * A route matches the path but not the method (named as Symfony's). Its message is empty,
 * as the reference's is: the router listener composes the one users see.
 */
export class MethodNotAllowedException extends Error {
  readonly code: ErrorCode = 'KEEL_ERR_ROUTE_METHOD_NOT_ALLOWED';
  /** Methods declared by the routes that matched the path, in route order, first occurrence kept. */
  readonly allow: readonly string[];

  constructor(allow: readonly string[]) {
    super('');
    this.name = 'MethodNotAllowedException';
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

export function isRoutingError(error: unknown): error is ResourceNotFoundException | MethodNotAllowedException {
  return error instanceof ResourceNotFoundException || error instanceof MethodNotAllowedException;
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
