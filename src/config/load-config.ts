import { join, resolve } from 'node:path';
import { compileTrustedProxies } from '../proxy/compile-trusted-proxies.js';
import { MAX_LIMIT } from '../rate-limiter/address-ceiling.js';
import { EDITOR_FORMATS, editorFormat } from '../internal/editor-links.js';
import { escapeControls } from '../logging/one-line.js';
import { ConfigError } from './config-error.js';
import type { AppEnv, KeelConfig, RateLimiterConfig, ServerLimits } from './config.js';
import { EnvValues } from './env-values.js';
import { resolveEnvironment } from './resolve-env-vars.js';
import { findRedisUrlOptions, isRedisUrl, lowerRedisScheme } from './redis-url.js';

export { ConfigError } from './config-error.js';
export { maskSecrets } from './mask-secrets.js';
export { resolveEnvVars } from './resolve-env-vars.js';

export interface LoadConfigOptions {
  /** The project directory: `.env` files are read and `var/` written here. */
  cwd?: string;
  /** The real environment; it wins over every file. */
  env?: Record<string, string | undefined>;
  /** Values the application chooses for itself, below every file (e.g. the demo's TRUSTED_HEADERS). */
  defaults?: Record<string, string>;
}

const APP_ENVS = ['dev', 'prod', 'test'] as const;
const TRUSTED_HEADERS = ['forwarded', 'x-forwarded-for', 'x-forwarded-host', 'x-forwarded-proto', 'x-forwarded-port', 'x-forwarded-prefix'] as const;
const LOG_LEVELS = ['debug', 'info', 'notice', 'warning', 'error', 'critical'] as const;
const POLICIES = ['fixed_window', 'sliding_window', 'token_bucket', 'no_limit'] as const;
const TWO_DAYS = 2 * 86_400;

/**
 * Resolves the configuration the way Symfony's Dotenv::loadEnv() does: `.env`, then `.env.local` (not in
 * the test environment, so that test runs are reproducible), then `.env.<APP_ENV>` and
 * `.env.<APP_ENV>.local`; each file overrides the ones before it and the real environment overrides them
 * all (see resolveEnvVars). The process environment is never modified. Invalid values throw a ConfigError
 * (`KEEL_ERR_CONFIG_INVALID`) naming the variable, and .env syntax errors one naming the file and line.
 * @example const config = loadConfig({ cwd: process.cwd(), env: process.env });
 */
export function loadConfig({ cwd = process.cwd(), env = process.env, defaults = {} }: LoadConfigOptions = {}): KeelConfig {
  const projectDir = resolve(cwd);
  const { variables, fromFiles } = resolveEnvironment(projectDir, env, defaults);
  return { ...buildConfig(new EnvValues(variables), projectDir), dotenvVars: fromFiles };
}

function buildConfig(values: EnvValues, projectDir: string): KeelConfig {
  const env: AppEnv = values.oneOf('APP_ENV', APP_ENVS, 'dev');
  // Symfony's bootEnv() casts APP_DEBUG to an integer: set but empty (`APP_DEBUG=`) is 0, debug off.
  const debug = values.isBlank('APP_DEBUG') ? false : values.boolean('APP_DEBUG', env !== 'prod');
  const varDir = join(projectDir, 'var');
  const trustedProxies = values.list('TRUSTED_PROXIES', []);
  compileTrustedProxies(trustedProxies);
  // Off by default in the test environment, as Symfony's test settings leave it (`collect: false`, no
  // toolbar): a test suite's requests are not records anyone opens. KEEL_PROFILER=1 turns it on there.
  const profilerEnabled = debug && values.boolean('KEEL_PROFILER', env !== 'test');
  const logFile = values.raw('LOG_FILE');
  refuseUndeclaredLimiters(values);
  return {
    env,
    debug,
    port: values.integer('PORT', 8000, 0, 65_535),
    host: values.string('HOST', '127.0.0.1'),
    projectDir,
    varDir,
    trustedProxies,
    trustedHeaders: values.list('TRUSTED_HEADERS', ['x-forwarded-for', 'x-forwarded-port', 'x-forwarded-proto']).map((name) => {
      const lower = name.toLowerCase();
      if (!(TRUSTED_HEADERS as readonly string[]).includes(lower)) throw new ConfigError('TRUSTED_HEADERS', name, `a comma list of ${TRUSTED_HEADERS.join(', ')}`);
      return lower as (typeof TRUSTED_HEADERS)[number];
    }),
    trustedHosts: values.patternList('TRUSTED_HOSTS').map((pattern) => checkPattern('TRUSTED_HOSTS', pattern)),
    disallowSearchEngineIndex: values.boolean('DISALLOW_SEARCH_ENGINE_INDEX', debug),
    editor: readEditor(values),
    profiler: {
      enabled: profilerEnabled,
      toolbar: profilerEnabled && values.boolean('KEEL_TOOLBAR', profilerEnabled),
      maxRecords: values.integer('KEEL_PROFILER_MAX_RECORDS', 500, 1),
      maxAge: values.duration('KEEL_PROFILER_MAX_AGE', TWO_DAYS),
      storage: readProfilerStorage(values),
    },
    log: {
      level: values.oneOf('LOG_LEVEL', LOG_LEVELS, env === 'prod' ? 'info' : 'debug'),
      file: logFile !== undefined ? resolve(projectDir, logFile) : env === 'prod' ? undefined : join(varDir, 'log', `${env}.log`),
    },
    rateLimiter: {
      default: readLimiter(values, 'DEFAULT', BUILT_IN_LIMITERS.default),
      sensitive: readLimiter(values, 'SENSITIVE', BUILT_IN_LIMITERS.sensitive),
      // More limiters by name: RATE_LIMITERS=search then RATE_LIMIT_SEARCH_LIMIT, _INTERVAL, _POLICY …
      // A built-in one listed there keeps its own defaults.
      ...Object.fromEntries(values.list('RATE_LIMITERS', []).map((name) => [name, readLimiter(values, limiterVariable(name), builtInLimiter(name))])),
    },
    rateLimiterStorage: {
      url: readStorageUrl(values),
      timeout: values.integer('RATE_LIMIT_TIMEOUT', 200, 1, 60_000),
    },
    bodyLimit: values.bytes('BODY_LIMIT', 1_048_576),
    server: readServerLimits(values),
  };
}

function readEditor(values: EnvValues): string | undefined {
  const setting = values.raw('KEEL_EDITOR');
  if (setting === undefined) return undefined;
  const format = editorFormat(setting);
  if (format === undefined) throw new ConfigError('KEEL_EDITOR', setting, `one of ${Object.keys(EDITOR_FORMATS).join(', ')}, or a URL format with %f (the file) and %l (the line)`);
  return format;
}

// node:http refuses a headers timeout longer than the request timeout, so the pair is checked here, by name.
function readServerLimits(values: EnvValues): ServerLimits {
  const requestTimeout = values.integer('REQUEST_TIMEOUT_MS', 30_000, 1);
  const headersTimeout = values.integer('HEADERS_TIMEOUT_MS', Math.min(10_000, requestTimeout), 1);
  if (headersTimeout > requestTimeout) throw new ConfigError('HEADERS_TIMEOUT_MS', String(headersTimeout), `at most REQUEST_TIMEOUT_MS (${requestTimeout})`);
  return {
    headersTimeout,
    requestTimeout,
    // node arms the idle connection's timer 1 s past this: beyond a timer's range, each request warned
    // TimeoutOverflowWarning on stderr.
    keepAliveTimeout: values.integer('KEEP_ALIVE_TIMEOUT_MS', 5_000, 1, 2 ** 31 - 1 - 1_000),
    // A timer's range: beyond it, node would fire at once.
    sendTimeout: values.integer('SEND_TIMEOUT_MS', 60_000, 1, 2 ** 31 - 1),
    maxHeaderSize: values.bytes('MAX_HEADER_SIZE', 16 * 1024),
    // At most what a timer holds (2^31 − 1 ms, ~24.8 days) once the last resort's 5 s are added: a timer
    // beyond fires at once, and the stop would cut everything and exit 1.
    gracePeriod: values.integer('SHUTDOWN_GRACE_MS', 10_000, 0, 2 ** 31 - 1 - 5_000),
  };
}

// The reference's two limiters (its rate_limiter.yaml), the settings a bare RATE_LIMIT_<NAME>_* changes.
const BUILT_IN_LIMITERS = {
  default: { policy: 'fixed_window', limit: 50, interval: 30 },
  sensitive: { policy: 'fixed_window', limit: 20, interval: 30 },
} as const satisfies Record<string, RateLimiterConfig>;

function builtInLimiter(name: string): RateLimiterConfig | undefined {
  return name === 'default' || name === 'sensitive' ? BUILT_IN_LIMITERS[name] : undefined;
}

function readLimiter(values: EnvValues, name: string, fallback: RateLimiterConfig | undefined): RateLimiterConfig {
  const prefix = `RATE_LIMIT_${name}_`;
  const policy = values.oneOf(`${prefix}POLICY`, POLICIES, fallback?.policy ?? 'fixed_window');
  if (fallback === undefined && policy !== 'no_limit' && values.raw(`${prefix}LIMIT`) === undefined) {
    // Symfony: "A limit must be provided when using a policy different than "no_limit"."
    throw new ConfigError(`${prefix}LIMIT`, '', 'a limit, required unless the policy is no_limit');
  }
  // At most MAX_LIMIT: each limiter gets a per-address ceiling of five times its quota, which start-up
  // could not make exact past that (it failed there with a RangeError, the setting unnamed).
  const limit = values.integer(`${prefix}LIMIT`, fallback?.limit ?? 1, 1, MAX_LIMIT);
  const interval = values.duration(`${prefix}INTERVAL`, fallback?.interval ?? 60);
  const extra: Pick<RateLimiterConfig, 'paths' | 'failMode'> = {};
  const paths = values.list(`${prefix}PATHS`, []);
  if (paths.length > 0) extra.paths = paths.map((path) => checkPathPrefix(`${prefix}PATHS`, path));
  if (values.raw(`${prefix}FAIL_MODE`) !== undefined) {
    extra.failMode = values.oneOf(`${prefix}FAIL_MODE`, ['open', 'closed', 'fail-open', 'fail-closed'], 'open').replace('fail-', '') as 'open' | 'closed';
  }
  if (policy !== 'token_bucket') return { policy, limit, interval, ...extra };
  // Symfony's token bucket refills `rate.amount` tokens every `rate.interval` (amount defaults to 1).
  return { policy, limit, interval, rate: { interval, amount: values.integer(`${prefix}RATE_AMOUNT`, 1, 1, MAX_LIMIT) }, ...extra };
}

// RATE_LIMIT_<NAME>_<FIELD>: a setting of one limiter (RATE_LIMIT_STORAGE and _TIMEOUT are no limiter's).
const LIMITER_SETTING = /^RATE_LIMIT_(.+)_(POLICY|LIMIT|INTERVAL|PATHS|FAIL_MODE|RATE_AMOUNT)$/;

/**
 * A limiter's settings for a name RATE_LIMITERS does not list would be read by nothing: `RATE_LIMIT_API_LIMIT=2`
 * without `RATE_LIMITERS=api` left /api/ unlimited without a word.
 */
function refuseUndeclaredLimiters(values: EnvValues): void {
  const listed = values.list('RATE_LIMITERS', []);
  const declared = new Set(['DEFAULT', 'SENSITIVE', ...listed.map((name) => name.toUpperCase())]);
  for (const variable of values.names()) {
    const name = LIMITER_SETTING.exec(variable)?.[1];
    if (name === undefined || declared.has(name)) continue;
    const suggested = [...listed, name.toLowerCase()].join(',');
    throw new ConfigError(variable, values.raw(variable) ?? '', `a setting of a declared limiter, and RATE_LIMITERS does not list "${name.toLowerCase()}": add it there (RATE_LIMITERS=${suggested})`);
  }
}

function limiterVariable(name: string): string {
  if (!/^[a-z][a-z0-9_]*$/i.test(name)) throw new ConfigError('RATE_LIMITERS', name, 'a comma list of limiter names (letters, digits, _)');
  return name.toUpperCase();
}

/**
 * A prefix is compared with the request's path as it is: `/api/*` or `/api/?` (a glob, a query) matches no
 * path, and left the API it was meant for unlimited without a word.
 */
function checkPathPrefix(variable: string, path: string): string {
  if (!path.startsWith('/')) throw new ConfigError(variable, path, 'a comma list of path prefixes starting with /');
  if (/[*?#]/.test(path)) throw new ConfigError(variable, path, 'a comma list of plain path prefixes, without *, ? or # (/api/ covers every path under /api/)');
  return path;
}

function readProfilerStorage(values: EnvValues): KeelConfig['profiler']['storage'] {
  const storage = values.string('KEEL_PROFILER_STORAGE', 'file');
  if (storage === 'file' || storage === 'memory') return storage;
  return checkRedisUrl('KEEL_PROFILER_STORAGE', storage, `"file", "memory" or ${REDIS_URL_FORM}`) as KeelConfig['profiler']['storage'];
}

const REDIS_URL_FORM = 'a Redis URL, redis[s]://[[user]:password@]host[:port][/database number]';

function readStorageUrl(values: EnvValues): string {
  const url = values.string('RATE_LIMIT_STORAGE', 'memory');
  return url === 'memory' ? url : checkRedisUrl('RATE_LIMIT_STORAGE', url, `"memory" or ${REDIS_URL_FORM}`);
}

function checkRedisUrl(variable: string, url: string, expected: string): string {
  const options = findRedisUrlOptions(url);
  if (options.length > 0) {
    // Named, since the client would have taken them over keel's own options (see findRedisUrlOptions).
    throw new ConfigError(variable, url, `${REDIS_URL_FORM}, with no query parameter but db: ${options.map((name) => `"${escapeControls(name)}"`).join(', ')} would override the client options keel sets`);
  }
  if (!isRedisUrl(url)) throw new ConfigError(variable, url, expected);
  return lowerRedisScheme(url);
}

function checkPattern(variable: string, pattern: string): string {
  try {
    new RegExp(pattern, 'i');
  } catch {
    throw new ConfigError(variable, pattern, 'a comma list of valid regular expressions');
  }
  return pattern;
}
