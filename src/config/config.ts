/** A rate limiter's settings (`framework.rate_limiter.<name>` in the reference). */
export interface RateLimiterConfig {
  policy: 'fixed_window' | 'sliding_window' | 'token_bucket' | 'no_limit';
  limit: number;
  /** Window length in seconds (fixed and sliding window). */
  interval: number;
  /** Token bucket refill: `amount` tokens every `interval` seconds. */
  rate?: { interval: number; amount: number };
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
  profiler: {
    /** Never true when debug is off, whatever the environment says. */
    enabled: boolean;
    toolbar: boolean;
    /** Records kept (oldest purged first). */
    maxRecords: number;
    /** Records older than this are purged, in seconds. */
    maxAge: number;
    storage: 'file' | 'memory';
  };
  log: {
    level: 'debug' | 'info' | 'notice' | 'warning' | 'error' | 'critical';
    /** Log file; dev writes var/log/dev.log in Monolog's line format, prod writes JSON lines. */
    file: string | undefined;
  };
  rateLimiter: Record<string, RateLimiterConfig>;
  /** Largest request body read into memory, in bytes. */
  bodyLimit: number;
}
