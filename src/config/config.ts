/** A rate limiter's settings (`framework.rate_limiter.<name>` in the reference). */
export interface RateLimiterConfig {
  policy: 'fixed_window' | 'sliding_window' | 'token_bucket' | 'no_limit';
  limit: number;
  /** Window length in seconds (fixed and sliding window). */
  interval: number;
  /** Token bucket refill: `amount` tokens every `interval` seconds. */
  rate?: { interval: number; amount: number };
  /** Path prefixes the limiter applies to, beside the routes that name it (`/api/`). */
  paths?: string[];
  /** When the storage cannot answer: admit (`open`, the default for `default`) or refuse (`closed`, for the others). */
  failMode?: 'open' | 'closed';
}

export type AppEnv = 'dev' | 'prod' | 'test';

/** The effective configuration of an application, after the .env cascade and the real environment. */
export interface KeelConfig {
  env: AppEnv;
  debug: boolean;
  port: number;
  host: string;
  /** Absolute directory the app runs from: `.env` files are read and `var/` is written here. */
  projectDir: string;
  /** `var/` under projectDir: logs in var/log, profiles in var/profiler. */
  varDir: string;
  /** Addresses or CIDR ranges, plus the aliases `REMOTE_ADDR`, `loopback` and `private_ranges`. */
  trustedProxies: string[];
  /** Which forwarded headers a trusted proxy may set. */
  trustedHeaders: ('forwarded' | 'x-forwarded-for' | 'x-forwarded-host' | 'x-forwarded-proto' | 'x-forwarded-port' | 'x-forwarded-prefix')[];
  /** Regular expressions the Host must match; empty means any host. */
  trustedHosts: string[];
  /** Adds `X-Robots-Tag: noindex` to every response; defaults to the debug flag. */
  disallowSearchEngineIndex: boolean;
  /**
   * The link format that opens a file at a line in the developer's editor (`KEEL_EDITOR`: a known editor's
   * name or a format with `%f` and `%l`); unset, debug pages link files to the profiler's source view.
   */
  editor?: string;
  /**
   * The variables the `.env` files set (those the real environment left to them), by name: the profiler's
   * request panel lists them apart from the process environment, as Symfony's "Defined in .env". Absent
   * from a configuration built by hand.
   */
  dotenvVars?: Readonly<Record<string, string>>;
  profiler: {
    /** Never true when debug is off, whatever the environment says. */
    enabled: boolean;
    toolbar: boolean;
    /** Records kept (oldest purged first). */
    maxRecords: number;
    /** Records older than this are purged, in seconds. */
    maxAge: number;
    /** `file` (var/profiler, memory in front), `memory`, or a `redis://` URL shared by several instances. */
    storage: 'file' | 'memory' | `redis://${string}` | `rediss://${string}`;
  };
  log: {
    level: 'debug' | 'info' | 'notice' | 'warning' | 'error' | 'critical';
    /** Log file; dev writes var/log/dev.log in Monolog's line format, prod writes JSON lines. */
    file: string | undefined;
  };
  rateLimiter: Record<string, RateLimiterConfig>;
  /** Where limiter state lives: `memory` (this process) or a `redis://` URL (shared); timeout in ms. */
  rateLimiterStorage?: { url: string; timeout: number };
  /** Largest request body read into memory, in bytes. */
  bodyLimit: number;
  /** Connection limits of the HTTP server; absent means serve()'s defaults. */
  server?: ServerLimits;
}

/** How long a client may take, and how much it may send, before the server cuts it off. */
export interface ServerLimits {
  /** Time to receive the whole header block (slowloris), in ms. */
  headersTimeout: number;
  /** Time to receive the whole request, body included, in ms. */
  requestTimeout: number;
  /** Idle time allowed between two requests of a keep-alive connection, in ms. */
  keepAliveTimeout: number;
  /**
   * Time a response being sent may go without its connection accepting any more of it (nginx's
   * send_timeout), in ms: the connection is then reset, and what it held (its buffered bytes, a stream's
   * source) let go of.
   */
  sendTimeout: number;
  /** Largest header block, in bytes; more is answered 431. */
  maxHeaderSize: number;
  /** On shutdown, how long in-flight requests may take before their sockets are destroyed, in ms. */
  gracePeriod: number;
}

/** The configuration as the profiler and `keel config` show it: the `.env` variables are listed apart. */
export function configWithoutDotenv({ dotenvVars: _dotenvVars, ...config }: KeelConfig): Omit<KeelConfig, 'dotenvVars'> {
  return config;
}
