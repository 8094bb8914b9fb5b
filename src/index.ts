// keel's public API, grouped by area. Anything not listed here (src/internal/, component internals) may change
// without notice.

// Application
export { createApp, type App, type AppOptions } from './app.js';
export type { KeelConfig, RateLimiterConfig, AppEnv } from './config/config.js';
export { loadConfig, maskSecrets, ConfigError, type LoadConfigOptions } from './config/load-config.js';

// HTTP model
export { Request, type BodySource, type RequestAttributes, type RequestInit, type RequestOrigin, type RequestType, type Controller } from './http/request.js';
export { Response, type ResponseBody, type HeadersInit } from './http/response.js';
export type { BodyStream } from './http/body-stream.js';
export { lastEventId, serverSentEvent, type ServerSentEvent } from './http/server-sent-event.js';
export { fileResponse, type FileResponseOptions } from './http/file-response.js';
export { staticFiles, type StaticFilesOptions } from './http/static-files.js';
export { HeaderBag } from './http/header-bag.js';
export { readJson, readForm, readFiles } from './http/read-body.js';
export type { UploadedFile } from './http/multipart.js';
export { readCookies, setCookie, clearCookie, type CookieOptions } from './http/cookies.js';
export {
  HttpException,
  BadRequestHttpException,
  NotFoundHttpException,
  MethodNotAllowedHttpException,
  TooManyRequestsHttpException,
  isHttpException,
  type HttpExceptionOptions,
  type HttpErrorCode,
} from './http/http-exception.js';
export { ERROR_CODES, type ErrorCode, type ErrorCodeInfo } from './http/error-codes.js';

// Kernel
export { Kernel, type HandleOptions, type KernelOptions } from './kernel/kernel.js';
export { AttributeControllerResolver, type ControllerResolver } from './kernel/controller-resolver.js';
export { EventDispatcher, type EventSubscription, type Listener, type Subscriber, type Subscription, type ListenerTracer } from './kernel/event-dispatcher.js';
export {
  KernelEvent,
  RequestEvent,
  ControllerEvent,
  ControllerArgumentsEvent,
  ViewEvent,
  ResponseEvent,
  ExceptionEvent,
  FinishRequestEvent,
  TerminateEvent,
  type KernelEvents,
  type KernelEventName,
} from './kernel/events.js';
export { RequestStack } from './kernel/request-stack.js';

// Routing
export { RouteCollection } from './routing/route-collection.js';
export { Route, type RouteDefinition, type RouteOptions } from './routing/route.js';
export { defineRoute, type PlaceholderNames, type RouteParams, type TypedRouteDefinition } from './routing/define-route.js';
export { Matcher, type MatchContext, type MatchResult } from './routing/matcher.js';
export { RouterListener } from './routing/router-listener.js';
export { traceRoutes, type RouteTrace, type RoutingTrace } from './routing/trace.js';
export { UrlGenerator } from './routing/url-generator.js';
export { ResourceNotFoundException, MethodNotAllowedException, RouteDefinitionError } from './routing/routing-errors.js';

// Errors
export { ErrorListener } from './errors/error-listener.js';
export { ErrorRenderer } from './errors/renderers/error-renderer.js';
export type { Renderer } from './errors/renderers/renderer.js';
export { createErrorController, createPreviewErrorRoute } from './errors/error-controller.js';
export { createFlatError, FlatError } from './errors/flat-error.js';

// Profiler
export { Profiler } from './profiler/profiler.js';
export { createProfiler, createProfileStore, createDefaultCollectors, profilerSubscribers } from './profiler/create-profiler.js';
export type { Profile, ProfileSummary } from './profiler/profile.js';
export type { ProfileStore } from './profiler/profile-store.js';
export { MemoryProfileStore } from './profiler/memory-profile-store.js';
export { FileProfileStore } from './profiler/file-profile-store.js';
export type { Collector } from './profiler/collectors/collector.js';
export { createProfilerRoutes } from './profiler/ui/profiler-routes.js';

// Rate limiting (the Redis storage is not exported here, so that the core never loads its client:
// import it from 'keel/redis-storage', or set RATE_LIMIT_STORAGE=redis://…)
export { RateLimiter, createRateLimiter, type RateLimiterOptions, type FailMode } from './rate-limiter/rate-limiter.js';
export { RateLimit, createTooManyRequests, type RateLimitInit } from './rate-limiter/rate-limit.js';
export { Reservation, MaxWaitDurationExceededError } from './rate-limiter/reservation.js';
export { rateLimitHeaders } from './rate-limiter/rate-limit-headers.js';
export { clientKey } from './rate-limiter/rate-limit-key.js';
export { RateLimitListener, type RateLimitRecord, type RouteLimiterOptions } from './rate-limiter/rate-limit-listener.js';
export { createRateLimiting, type RateLimiting, type CreateRateLimitingOptions } from './rate-limiter/create-rate-limiting.js';
export type { Storage as RateLimiterStorage } from './rate-limiter/storage/storage.js';
export { MemoryStorage } from './rate-limiter/storage/memory-storage.js';
export { GuardedStorage, StorageUnavailableError } from './rate-limiter/storage/guarded-storage.js';
export type { Clock } from './rate-limiter/clock.js';

// Reverse proxies
export { createOriginResolver } from './proxy/trusted-proxies.js';
export { OriginGuardListener } from './proxy/origin-guard-listener.js';

// Logging
export { createLogger, type ClosableLogger, type LoggerOptions } from './logging/create-logger.js';
export { AbstractLogger, type Logger, type LogContext } from './logging/logger.js';
export { RecordingLogger, type RecordedLog } from './logging/recording-logger.js';
export type { LogRecord, LogLevel } from './logging/log-record.js';

// Server
export { serve, type ServeOptions, type RunningServer } from './server/serve.js';
export { createRequestListener, type RequestListener } from './server/node-adapter.js';
export { ClientGoneError, ServerStoppingError } from './server/client-gone-signal.js';
export { runServer, resolveWorkerCount, type RunOptions, type Closable } from './server/cluster.js';
