/**
 * Every message keel logs, in one place. Where the reference fixes the text (so that existing log alerts
 * keep matching), it is copied byte for byte; `{name}` placeholders are filled from the record's context,
 * as Monolog's PsrLogMessageProcessor does.
 */
export const LOG_MESSAGES = {
  /** RouterListener, INFO, channel `request`; context: route, route_parameters, request_uri, method. */
  matchedRoute: 'Matched route "{route}".',
  /** ErrorListener, ERROR below 500 and CRITICAL from 500 up, channel `request`; context: exception. */
  uncaughtException: 'Uncaught PHP Exception {class}: "{message}" at {file} line {line}',
  /**
   * ErrorListener, NOTICE, channel `request`, instead of uncaughtException for a body cut off by the end of a
   * stop's grace period (KEEL_ERR_SERVER_STOPPING); context: code, method, request_uri.
   */
  requestCutOffByStop: 'request cut off by the server stopping before its body had all arrived',
  /** ErrorListener, NOTICE, likewise for a body whose client closed the connection (KEEL_ERR_CLIENT_GONE). */
  requestCutOffByClient: 'request cut off by its client closing the connection before its body had all arrived',
  /** ErrorListener, when the error sub-request itself failed. */
  exceptionWhileHandling: 'Exception thrown when handling an exception ({class}: {message} at {file} line {line})',
  serverListening: 'server listening',
  serverClosing: 'server closing',
  debugOnPublicAddress: 'debug mode is on and the server listens on a non-loopback address: the profiler exposes every request to anyone who can reach it',
  /** Once per outage of the durable profile store, and once when it writes again. */
  profileStoreWriteFailed: 'profile store write failed',
  profileStoreRecovered: 'profile store recovered: records are written again',
  /** Once per episode: the durable profile store cannot keep up, newer records stay in memory only. */
  profileStoreBehind: 'profile store falling behind: records kept in memory only',
  kernelFailure: 'kernel failure outside the error pipeline',
  /** runServer and `keel serve`, then the graceful stop and exit 1; context: exception. */
  uncaughtOutsideRequest: 'uncaught exception outside any request, stopping',
  unhandledRejectionOutsideRequest: 'unhandled promise rejection outside any request, stopping',
  /** ERROR, channel `request`; context: exception, method, request_uri. The connection was cut mid-body. */
  responseStreamFailed: 'response stream failed after its headers were sent: connection closed',
  /** WARNING, channel `request`; context: timeout (ms), method, request_uri. nginx says "client timed out … while sending to client". */
  responseSendTimeout: 'client took no more of the response for {timeout} ms: connection reset',
  /**
   * Rate limiter, channel `rate_limiter`, once per outage (twice when the connection names its cause only after
   * the first failure) and once per recovery; context: storage (URL, credentials masked), error.
   */
  rateLimitStorageUnavailable: 'rate limiter storage unavailable',
  rateLimitStorageRecovered: 'rate limiter storage recovered',
} as const;

export type LogMessageKey = keyof typeof LOG_MESSAGES;
