import { derivedValues, type HoldsDerivedValues } from '../internal/attached.js';
import type { ErrorCode } from './error-codes.js';

/** keel's own `KEEL_ERR_*` codes (offered by editors), or any of the application's. */
export type HttpErrorCode = ErrorCode | (string & {});

export interface HttpExceptionOptions {
  message?: string;
  headers?: Record<string, string>;
  /** keel's own `KEEL_ERR_*` codes, or the application's: in JSON log lines and the profiler. */
  code?: HttpErrorCode;
  /**
   * Whether production error bodies (JSON, XML…) give the message as `detail`, for an API whose clients
   * need it (`Email already registered`). Off by default: like the reference, they give the status text
   * only, and HTML pages always do; in debug every message shows.
   */
  expose?: boolean;
  cause?: unknown;
}

/**
 * An error that carries its HTTP answer: status, headers, a stable code and whether its message may be
 * shown. The class names of the subclasses are Symfony's, because they appear in log lines and profiler
 * pages where users of the reference system look for them.
 */
export class HttpException extends Error implements HoldsDerivedValues {
  readonly status: number;
  readonly headers: Record<string, string>;
  readonly code: HttpErrorCode;
  readonly expose: boolean;
  #derived: Record<symbol, unknown> | undefined;

  constructor(status: number, { message = '', headers = {}, code = 'KEEL_ERR_HTTP', expose, cause }: HttpExceptionOptions = {}) {
    super(message, cause === undefined ? undefined : { cause });
    this.name = new.target.name;
    this.status = status;
    this.headers = headers;
    this.code = code;
    this.expose = expose ?? false;
  }

  /** Values derived from this error (its flattened form...), see attached(). */
  [derivedValues](): Record<symbol, unknown> {
    return (this.#derived ??= {});
  }
}

/** A request the application refuses as malformed (Symfony converts its request exceptions into this one). */
export class BadRequestHttpException extends HttpException {
  constructor(message = '', options: Omit<HttpExceptionOptions, 'message'> = {}) {
    super(400, { code: 'KEEL_ERR_BAD_REQUEST', ...options, message });
  }
}

/**
 * The 400 the kernel answers for a request exception: the same message, the request exception as its
 * cause. Its stack starts at the caller, which the log line and the error page name as where it was thrown.
 */
export function badRequest(cause: Error, code: ErrorCode): BadRequestHttpException {
  const error = new BadRequestHttpException(cause.message, { code, cause });
  Error.captureStackTrace(error, badRequest);
  return error;
}

export class NotFoundHttpException extends HttpException {
  constructor(message = '', options: Omit<HttpExceptionOptions, 'message'> = {}) {
    super(404, { code: 'KEEL_ERR_NOT_FOUND', ...options, message });
  }
}

export class MethodNotAllowedHttpException extends HttpException {
  readonly allow: readonly string[];

  constructor(allow: readonly string[], message = '', options: Omit<HttpExceptionOptions, 'message'> = {}) {
    super(405, {
      code: 'KEEL_ERR_ROUTE_METHOD_NOT_ALLOWED',
      ...options,
      message,
      headers: { Allow: allow.join(', '), ...options.headers },
    });
    this.allow = allow;
  }
}

export class TooManyRequestsHttpException extends HttpException {
  /** Seconds to wait, or an HTTP-date; no Retry-After header when absent (Symfony sends it only when truthy). */
  readonly retryAfter: number | string | undefined;

  constructor(retryAfter?: number | string, message = '', options: Omit<HttpExceptionOptions, 'message'> = {}) {
    const headers: Record<string, string> = retryAfter ? { 'Retry-After': String(retryAfter) } : {};
    // Retry-After comes after the headers given, as Symfony's constructor appends it.
    super(429, { code: 'KEEL_ERR_RATE_LIMITED', ...options, message, headers: { ...options.headers, ...headers } });
    this.retryAfter = retryAfter;
  }
}

export function isHttpException(error: unknown): error is HttpException {
  return error instanceof HttpException;
}
