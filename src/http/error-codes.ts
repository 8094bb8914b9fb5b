/**
 * Every error keel raises itself, with a stable code (`KEEL_ERR_<AREA>_<CONDITION>`), the HTTP status it
 * answers with, and how to fix it. docs/errors.md lists the same codes; a test keeps the two in sync.
 */
export interface ErrorCodeInfo {
  status: number;
  summary: string;
  fix: string;
}

export const ERROR_CODES = {
  KEEL_ERR_HTTP: {
    status: 500,
    summary: 'An HTTP error raised by application code without a more specific code.',
    fix: 'Pass a `code` to `HttpException` when callers need to tell the case apart.',
  },
  KEEL_ERR_NOT_FOUND: {
    status: 404,
    summary: 'The application answered not found: a controller threw NotFoundHttpException (a book that does not exist).',
    fix: 'Request something that exists; the message says what was looked for.',
  },
  KEEL_ERR_FILE_NOT_FOUND: {
    status: 404,
    summary: 'A file response or a static files route names no regular file it may serve (missing, a folder, outside the folder, a dotfile).',
    fix: 'Check the path; the message never says where on disk the file was looked for.',
  },
  KEEL_ERR_ROUTE_NOT_FOUND: {
    status: 404,
    summary: 'No route matches the request path (after the trailing-slash retry for GET and HEAD).',
    fix: 'Check the path against `keel debug:router`, or add a route for it.',
  },
  KEEL_ERR_ROUTE_METHOD_NOT_ALLOWED: {
    status: 405,
    summary: 'A route matches the path, but not the request method; the Allow header lists the methods that would.',
    fix: 'Send one of the methods in Allow, or add the method to the route.',
  },
  KEEL_ERR_CONTROLLER_NOT_FOUND: {
    status: 404,
    summary: 'The matched route names no controller.',
    fix: 'Give the route a `controller` function.',
  },
  KEEL_ERR_CONTROLLER_RESULT: {
    status: 500,
    summary: 'The controller returned something that is neither a Response nor a value a view listener could turn into one.',
    fix: 'Return a `Response` imported from keel (the global fetch API `Response` is not one), or a plain object, which the JSON view listener serialises.',
  },
  KEEL_ERR_RATE_LIMITED: {
    status: 429,
    summary: 'A rate limiter refused the request; Retry-After says when to try again.',
    fix: 'Wait for the number of seconds in Retry-After, or raise the limiter\'s limit.',
  },
  KEEL_ERR_PROFILER_STORAGE_UNAVAILABLE: {
    status: 503,
    summary: 'A profiler page could not read the profile storage (Redis down or stalled, a file store that cannot be read).',
    fix: 'Bring the storage back; records of this process written meanwhile stay readable from memory.',
  },
  KEEL_ERR_RATE_LIMIT_STORAGE_UNAVAILABLE: {
    status: 503,
    summary: 'The rate limiter storage (Redis) failed or did not answer within RATE_LIMIT_TIMEOUT ms, and the limiter fails closed; Retry-After: 1.',
    fix: 'Bring the storage back (the limiter reconnects by itself), or set `RATE_LIMIT_<NAME>_FAIL_MODE=open`.',
  },
  KEEL_ERR_CONFIG_RATE_LIMITER: {
    status: 500,
    summary: 'A rate limiting setting cannot work: a route or path prefix names an unknown limiter, a route\'s limiter options are mistyped, memory storage is used by node:cluster workers, or a limiter built in code has a limit or refill amount past 1801439850948198.',
    fix: 'Read the message: configure the limiter it names, correct the route option it names, lower the limit it names, or use RATE_LIMIT_STORAGE=redis://… under node:cluster.',
  },
  KEEL_ERR_BAD_REQUEST: {
    status: 400,
    summary: 'The request could not be parsed (malformed request line, header or body).',
    fix: 'Send a well-formed HTTP/1.1 request.',
  },
  KEEL_ERR_INVALID_METHOD_OVERRIDE: {
    status: 400,
    summary: 'A POST request names, in X-HTTP-Method-Override, a method that is not only letters, or sends the header empty.',
    fix: 'Send a method name such as PUT, PATCH or DELETE, or no override.',
  },
  KEEL_ERR_REQUEST_TIMEOUT: {
    status: 408,
    summary: 'The request body did not arrive within the request timeout; the connection was closed.',
    fix: 'Send the body promptly, or raise `REQUEST_TIMEOUT_MS`.',
  },
  KEEL_ERR_CLIENT_GONE: {
    status: 400,
    summary: 'The client closed the connection before the request body had all arrived, or before the application read it: the answer has no one to go to.',
    fix: 'Nothing on the server: the client gave up (a closed tab, a lost network). Many of them at once may mean a client timeout shorter than the uploads.',
  },
  KEEL_ERR_SERVER_STOPPING: {
    status: 503,
    summary: 'The server stopped, at the end of its grace period, before the request body had all arrived.',
    fix: 'Retry the request; raise `SHUTDOWN_GRACE_MS` if uploads outlast a stop.',
  },
  KEEL_ERR_HEADERS_TOO_LARGE: {
    status: 431,
    summary: 'The request headers exceed the server\'s limit.',
    fix: 'Send fewer or smaller headers, or raise `MAX_HEADER_SIZE`.',
  },
  KEEL_ERR_BODY_TOO_LARGE: {
    status: 413,
    summary: 'The request body exceeds the configured limit.',
    fix: 'Send a smaller body, or raise `BODY_LIMIT`.',
  },
  KEEL_ERR_PROXY_CONFLICTING_HEADERS: {
    status: 400,
    summary: 'A trusted proxy sent both a Forwarded header and an X-Forwarded-* header, and they disagree.',
    fix: 'Make the proxy send one kind of forwarded header, or trust only one kind.',
  },
  KEEL_ERR_UNTRUSTED_HOST: {
    status: 400,
    summary: 'The request host (the Host header, or the forwarded host a trusted proxy sent) is malformed or does not match the trusted host patterns.',
    fix: 'Send a valid host, or add a pattern matching it to `TRUSTED_HOSTS`; behind a proxy, check the host it forwards.',
  },
  KEEL_ERR_CONFIG_TRUSTED_PROXY: {
    status: 500,
    summary: 'An entry of TRUSTED_PROXIES is not an IP address, a CIDR range or a known alias.',
    fix: 'Use addresses, CIDR ranges, `REMOTE_ADDR`, `loopback` or `private_ranges`.',
  },
  KEEL_ERR_CONFIG_INVALID: {
    status: 500,
    summary: 'A configuration value is missing or malformed, or a .env file breaks Symfony\'s .env syntax.',
    fix: 'Read the message: it names the setting and the value expected, or the file, the line and Symfony\'s reason.',
  },
  KEEL_ERR_ROUTE_INVALID: {
    status: 500,
    summary: 'A route definition is invalid (bad placeholder, unsafe requirement, duplicate name).',
    fix: 'Read the message: it names the route and the problem.',
  },
  KEEL_ERR_ROUTE_GENERATION: {
    status: 500,
    summary: 'A URL could not be generated: unknown route, missing parameter, or a value its requirement refuses.',
    fix: 'Read the message: it names the route and the parameter.',
  },
  KEEL_ERR_PROFILER_PANEL_NOT_FOUND: {
    status: 404,
    summary: 'The profiler has no panel of that name for the record.',
    fix: 'Use one of the panels the record lists.',
  },
} as const satisfies Record<string, ErrorCodeInfo>;

export type ErrorCode = keyof typeof ERROR_CODES;
