import { derivedValues, type HoldsDerivedValues } from '../internal/attached.js';
import { checkHeaderName } from './header-bag.js';
import type { ErrorCode } from './error-codes.js';
import { isInstance } from '../internal/is-error.js';

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
  /**
   * Members the problem details of a JSON, XML, YAML or CSV error answer carry besides the standard ones
   * (RFC 9457's extension members), in production too: `{ violations: [{ field: 'email', message: '…' }] }`
   * for a validation error. Plain data; names of letters, digits, `_`, `.` and `-` that do not start with a
   * digit, other than `type`, `title`, `status`, `detail`, `class` and `trace`. HTML error pages leave them out.
   */
  extensions?: Record<string, unknown>;
  cause?: unknown;
}

// Valid as a JSON member, an XML element and a CSV column alike; the standard members keep their meaning.
const EXTENSION_NAME = /^[A-Za-z_][A-Za-z0-9_.-]*$/;
const RESERVED_MEMBERS = new Set(['type', 'title', 'status', 'detail', 'class', 'trace']);
const NO_EXTENSIONS: Readonly<Record<string, unknown>> = Object.freeze({});

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
  readonly extensions: Readonly<Record<string, unknown>>;
  #derived: Record<symbol, unknown> | undefined;

  constructor(status: number, { message = '', headers = {}, code = 'KEEL_ERR_HTTP', expose, extensions, cause }: HttpExceptionOptions = {}) {
    // Said where the error is made, as a Response says it: the error's answer would otherwise fail to be
    // built or written, past the error pipeline, as a bare 500 that names neither the status nor the header.
    checkStatus(status);
    for (const name in headers) if (Object.hasOwn(headers, name)) checkHeaderName(name);
    super(message, cause === undefined ? undefined : { cause });
    this.name = new.target.name;
    this.status = status;
    this.headers = headers;
    this.code = code;
    this.expose = expose ?? false;
    this.extensions = extensions === undefined ? NO_EXTENSIONS : checkedExtensions(extensions);
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
      // Symfony's: after the headers given, and in upper case (strtoupper, ASCII letters only), whatever they say.
      headers: { ...options.headers, Allow: allow.join(', ').replace(/[a-z]+/g, (letters) => letters.toUpperCase()) },
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
  return isInstance(error, HttpException);
}

// The Response's own check, and an interim status refused: it cannot be the final answer node writes.
function checkStatus(status: number): void {
  if (!Number.isInteger(status) || status < 100 || status >= 600) throw new RangeError(`The HTTP status code "${status}" is not valid.`);
  if (status < 200) throw new RangeError(`The HTTP status code "${status}" is informational and cannot end a response.`);
}

// Said where the error is made: a bad name would otherwise break the XML answer or silently replace a
// standard member, far from the code that chose it.
function checkedExtensions(extensions: Record<string, unknown>): Readonly<Record<string, unknown>> {
  for (const name of Object.keys(extensions)) {
    if (!EXTENSION_NAME.test(name) || RESERVED_MEMBERS.has(name)) {
      throw new TypeError(`"${name}" cannot be a member of problem details: use letters, digits, _, . and - (not starting with a digit), and none of ${[...RESERVED_MEMBERS].join(', ')}.`);
    }
  }
  // A value JSON cannot write (a BigInt, a cycle) would fail the error's own JSON answer, far from here.
  // Kept as the JSON data it writes: every format then shows the same values (a Date as its ISO text, a
  // function left out), where XML and YAML read the objects themselves and wrote a function's source.
  let text: string;
  try {
    text = JSON.stringify(extensions);
  } catch (error) {
    throw new TypeError(`The extensions of problem details must be JSON data: ${(error as Error).message}.`);
  }
  return JSON.parse(text) as Record<string, unknown>;
}
