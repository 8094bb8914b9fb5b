import assert from 'node:assert/strict';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { loadConfig, maskSecrets } from './load-config.js';
import { invalid, project } from './load-config.fixture.js';

describe('loadConfig', () => {
  describe('when no file and no variable is set', () => {
    it('runs in dev with debug, the profiler, the robots header and Symfony\'s trusted-header default', () => {
      const config = loadConfig({ cwd: project({}), env: {} });
      assert.equal(config.env, 'dev');
      assert.equal(config.debug, true);
      assert.equal(config.port, 8000);
      assert.equal(config.host, '127.0.0.1');
      assert.deepEqual(config.trustedProxies, []);
      assert.deepEqual(config.trustedHeaders, ['x-forwarded-for', 'x-forwarded-port', 'x-forwarded-proto']);
      assert.equal(config.disallowSearchEngineIndex, true);
      assert.deepEqual(config.profiler, { enabled: true, toolbar: true, maxRecords: 500, maxAge: 172_800, storage: 'file' });
      assert.equal(config.log.file, join(config.varDir, 'log', 'dev.log'));
      assert.deepEqual(config.rateLimiter, {
        default: { policy: 'fixed_window', limit: 50, interval: 30 },
        sensitive: { policy: 'fixed_window', limit: 20, interval: 30 },
      });
    });
  });

  describe('debug and the profiler', () => {
    it('turns debug off in prod, and with it the profiler, the toolbar and the robots header', () => {
      const config = loadConfig({ cwd: project({}), env: { APP_ENV: 'prod', KEEL_PROFILER: '1', KEEL_TOOLBAR: 'on' } });
      assert.equal(config.debug, false);
      assert.equal(config.profiler.enabled, false);
      assert.equal(config.profiler.toolbar, false);
      assert.equal(config.disallowSearchEngineIndex, false);
      assert.equal(config.log.file, undefined);
      assert.equal(config.log.level, 'info');
    });

    it('leaves the profiler off in the test environment unless asked for, as Symfony\'s test settings do', () => {
      const test = loadConfig({ cwd: project({}), env: { APP_ENV: 'test' } });
      assert.equal(test.debug, true);
      assert.equal(test.profiler.enabled, false);
      assert.equal(loadConfig({ cwd: project({}), env: { APP_ENV: 'test', KEEL_PROFILER: '1' } }).profiler.enabled, true);
      assert.equal(loadConfig({ cwd: project({}), env: { APP_ENV: 'dev' } }).profiler.enabled, true);
      assert.equal(loadConfig({ cwd: project({}), env: { APP_ENV: 'prod', APP_DEBUG: '1' } }).profiler.enabled, true);
    });

    it('accepts PHP\'s boolean spellings for APP_DEBUG', () => {
      for (const [value, expected] of [['1', true], ['on', true], ['TRUE', true], ['0', false], ['off', false], ['false', false]] as const) {
        assert.equal(loadConfig({ cwd: project({}), env: { APP_DEBUG: value } }).debug, expected, value);
      }
    });

    it('turns debug off for an empty APP_DEBUG, which Symfony casts to 0', () => {
      assert.equal(loadConfig({ cwd: project({ '.env': 'APP_DEBUG=\n' }), env: {} }).debug, false);
      assert.equal(loadConfig({ cwd: project({}), env: { APP_DEBUG: '' } }).debug, false);
    });

    it('reads the profiler limits, with the max age in seconds or as an interval', () => {
      const config = loadConfig({ cwd: project({}), env: { KEEL_PROFILER_MAX_AGE: '1 hour', KEEL_PROFILER_STORAGE: 'memory', KEEL_TOOLBAR: '0' } });
      assert.equal(config.profiler.maxAge, 3600);
      assert.equal(config.profiler.storage, 'memory');
      assert.equal(config.profiler.toolbar, false);
    });

    // The Redis client turns TLS on only for `rediss://` in lower case, and the profiler tells its Redis
    // storage from the file storage by the same prefix: `REDISS://` connected in clear text, and
    // KEEL_PROFILER_STORAGE=REDIS://… wrote to var/profiler instead.
    it('takes a Redis URL whose scheme is in capitals with the scheme in lower case, the rest as written', () => {
      const config = loadConfig({ cwd: project({}), env: { KEEL_PROFILER_STORAGE: 'REDIS://:Pw@Cache:6379/2', RATE_LIMIT_STORAGE: 'ReDiSs://:Pw@Cache:6380' } });
      assert.equal(config.profiler.storage, 'redis://:Pw@Cache:6379/2');
      assert.equal(config.rateLimiterStorage?.url, 'rediss://:Pw@Cache:6380');
    });
  });

  describe('rate limiters', () => {
    it('reads policy, limit and interval of both limiters', () => {
      const config = loadConfig({
        cwd: project({}),
        env: { RATE_LIMIT_DEFAULT_POLICY: 'sliding_window', RATE_LIMIT_DEFAULT_LIMIT: '5', RATE_LIMIT_DEFAULT_INTERVAL: '1 minute', RATE_LIMIT_SENSITIVE_POLICY: 'token_bucket' },
      });
      assert.deepEqual(config.rateLimiter.default, { policy: 'sliding_window', limit: 5, interval: 60 });
      assert.deepEqual(config.rateLimiter.sensitive, { policy: 'token_bucket', limit: 20, interval: 30, rate: { interval: 30, amount: 1 } });
    });

    it('reads the limiters RATE_LIMITERS names, a limit required, the interval 60 s unless given', () => {
      const config = loadConfig({ cwd: project({}), env: { RATE_LIMITERS: 'search', RATE_LIMIT_SEARCH_LIMIT: '7' } });
      assert.deepEqual(config.rateLimiter.search, { policy: 'fixed_window', limit: 7, interval: 60 });
      invalid(() => loadConfig({ cwd: project({}), env: { RATE_LIMITERS: 'search' } }), 'RATE_LIMIT_SEARCH_LIMIT');
    });

    it('keeps the defaults of a built-in limiter RATE_LIMITERS names again', () => {
      const config = loadConfig({ cwd: project({}), env: { RATE_LIMITERS: 'default,sensitive', RATE_LIMIT_DEFAULT_LIMIT: '5' } });
      assert.deepEqual(config.rateLimiter.default, { policy: 'fixed_window', limit: 5, interval: 30 });
      assert.deepEqual(config.rateLimiter.sensitive, { policy: 'fixed_window', limit: 20, interval: 30 });
    });
  });

  describe('when a value is invalid', () => {
    const cwd = project({});
    it('names APP_ENV and the allowed environments', () => invalid(() => loadConfig({ cwd, env: { APP_ENV: 'staging' } }), 'APP_ENV'));
    it('quotes a value holding a line break or an escape sequence escaped, on the one line that says what it expects', () => {
      const message = 'LOG_LEVEL="de\\u000abug\\u001b[2J" is invalid: expected one of debug, info, notice, warning, error, critical.';
      assert.throws(() => loadConfig({ cwd, env: { LOG_LEVEL: 'de\nbug\u001b[2J' } }), { message });
    });
    it('names PORT when it is out of range', () => invalid(() => loadConfig({ cwd, env: { PORT: '70000' } }), 'PORT'));
    it('names PORT when it is not a number', () => invalid(() => loadConfig({ cwd, env: { PORT: '80a' } }), 'PORT'));
    it('names APP_DEBUG when it is not a boolean', () => invalid(() => loadConfig({ cwd, env: { APP_DEBUG: 'maybe' } }), 'APP_DEBUG'));
    it('names TRUSTED_HEADERS when a header is unknown', () => invalid(() => loadConfig({ cwd, env: { TRUSTED_HEADERS: 'x-real-ip' } }), 'TRUSTED_HEADERS'));
    it('names TRUSTED_HOSTS when a pattern does not compile', () => invalid(() => loadConfig({ cwd, env: { TRUSTED_HOSTS: '^(app' } }), 'TRUSTED_HOSTS'));
    it('names LOG_LEVEL when the level is unknown', () => invalid(() => loadConfig({ cwd, env: { LOG_LEVEL: 'loud' } }), 'LOG_LEVEL'));
    it('names the limiter variable when the policy is unknown', () => invalid(() => loadConfig({ cwd, env: { RATE_LIMIT_SENSITIVE_POLICY: 'leaky' } }), 'RATE_LIMIT_SENSITIVE_POLICY'));
    it('names RATE_LIMIT_STORAGE when its Redis URL names no database number', () => invalid(() => loadConfig({ cwd, env: { RATE_LIMIT_STORAGE: 'redis://127.0.0.1:6379/abc' } }), 'RATE_LIMIT_STORAGE'));
    it('masks the password of a Redis URL it refuses, even one holding the / or # that made it invalid', () => {
      for (const url of ['redis://:pa/ss@host', 'redis://:pa#ss@host:99999', 'redis://:p%40ss@host:70000']) {
        assert.throws(() => loadConfig({ cwd, env: { RATE_LIMIT_STORAGE: url } }), (error: Error) => error.message.startsWith('RATE_LIMIT_STORAGE="redis://:******@host') && !/pa[/#]ss|p%40ss/.test(error.message));
      }
    });
    // The client reads every query parameter as an option, a string, over keel's own: "false" is truthy.
    it('names the storage setting and the parameters when a Redis URL\'s query holds any but db', () => {
      for (const variable of ['RATE_LIMIT_STORAGE', 'KEEL_PROFILER_STORAGE']) {
        assert.throws(() => loadConfig({ cwd, env: { [variable]: 'redis://cache:6379?db=2&enableOfflineQueue=false&commandTimeout=60000' } }), {
          name: 'ConfigError',
          message: `${variable}="redis://cache:6379?db=2&enableOfflineQueue=false&commandTimeout=60000" is invalid: expected a Redis URL, redis[s]://[[user]:password@]host[:port][/database number], with no query parameter but db: "enableOfflineQueue", "commandTimeout" would override the client options keel sets.`,
        });
      }
      assert.equal(loadConfig({ cwd, env: { RATE_LIMIT_STORAGE: 'redis://cache:6379?db=2' } }).rateLimiterStorage?.url, 'redis://cache:6379?db=2');
    });
    it('names KEEL_PROFILER_STORAGE when its Redis URL has a port that is no number', () => invalid(() => loadConfig({ cwd, env: { KEEL_PROFILER_STORAGE: 'redis://127.0.0.1:notaport' } }), 'KEEL_PROFILER_STORAGE'));
    it('names SHUTDOWN_GRACE_MS when no timer can hold it', () => invalid(() => loadConfig({ cwd, env: { SHUTDOWN_GRACE_MS: '3000000000' } }), 'SHUTDOWN_GRACE_MS'));
    // node arms a connection's keep-alive timer 1 s past the setting: beyond a timer's range, every request warned.
    it('names KEEP_ALIVE_TIMEOUT_MS when no timer can hold it once node adds its second, and takes the largest one can', () => {
      invalid(() => loadConfig({ cwd, env: { KEEP_ALIVE_TIMEOUT_MS: '2147482648' } }), 'KEEP_ALIVE_TIMEOUT_MS');
      assert.equal(loadConfig({ cwd, env: { KEEP_ALIVE_TIMEOUT_MS: '2147482647' } }).server?.keepAliveTimeout, 2_147_482_647);
    });
    it('names SEND_TIMEOUT_MS when no timer can hold it, or it is zero', () => {
      invalid(() => loadConfig({ cwd, env: { SEND_TIMEOUT_MS: '3000000000' } }), 'SEND_TIMEOUT_MS');
      invalid(() => loadConfig({ cwd, env: { SEND_TIMEOUT_MS: '0' } }), 'SEND_TIMEOUT_MS');
      assert.equal(loadConfig({ cwd, env: {} }).server?.sendTimeout, 60_000);
    });
    // Each limiter's per-address ceiling is five times its quota: past this bound start-up died making it.
    it('names a limit or refill amount past 1801439850948198, and that bound, which it takes', () => {
      const past = '2000000000000000';
      const bounded = /expected an integer from 1 to 1801439850948198\.$/;
      invalid(() => loadConfig({ cwd, env: { RATE_LIMIT_DEFAULT_LIMIT: past } }), 'RATE_LIMIT_DEFAULT_LIMIT');
      assert.throws(() => loadConfig({ cwd, env: { RATE_LIMIT_DEFAULT_LIMIT: past } }), bounded);
      assert.throws(() => loadConfig({ cwd, env: { RATE_LIMIT_SENSITIVE_POLICY: 'token_bucket', RATE_LIMIT_SENSITIVE_RATE_AMOUNT: past } }), /RATE_LIMIT_SENSITIVE_RATE_AMOUNT="2000000000000000" is invalid: expected an integer from 1 to 1801439850948198\.$/);
      assert.equal(loadConfig({ cwd, env: { RATE_LIMIT_DEFAULT_LIMIT: '1801439850948198' } }).rateLimiter.default?.limit, 1_801_439_850_948_198);
    });
    // Compared with the path as it is, a glob matched nothing, and the API it named stayed unlimited.
    it('names a path prefix written as a glob or with a query, which would match no path', () => {
      for (const paths of ['/api/*', '/status,/api/**', '/api/?page=1']) {
        assert.throws(() => loadConfig({ cwd, env: { RATE_LIMIT_DEFAULT_PATHS: paths } }), { code: 'KEEL_ERR_CONFIG_INVALID', message: /^RATE_LIMIT_DEFAULT_PATHS="\/api\/.*" is invalid: expected a comma list of plain path prefixes, without \*, \? or # \(\/api\/ covers every path under \/api\/\)\.$/ });
      }
      assert.deepEqual(loadConfig({ cwd, env: { RATE_LIMIT_DEFAULT_PATHS: '/api/,/status' } }).rateLimiter.default?.paths, ['/api/', '/status']);
    });
    it('names the interval when it is zero', () => invalid(() => loadConfig({ cwd, env: { RATE_LIMIT_DEFAULT_INTERVAL: '0' } }), 'RATE_LIMIT_DEFAULT_INTERVAL'));
    // Four hundred digits are Infinity: start-up died later on a RangeError that named no variable.
    it('names an interval too long to be a whole number of seconds, and the bound', () => {
      for (const interval of ['9'.repeat(400), '9007199254740992', '104249991375 days']) {
        assert.throws(() => loadConfig({ cwd, env: { RATE_LIMIT_DEFAULT_INTERVAL: interval } }), { code: 'KEEL_ERR_CONFIG_INVALID', message: /^RATE_LIMIT_DEFAULT_INTERVAL=".*" is invalid: expected .*, up to 9007199254740991 seconds\.$/ });
      }
      assert.equal(loadConfig({ cwd, env: { RATE_LIMIT_DEFAULT_INTERVAL: '9007199254740991' } }).rateLimiter.default?.interval, Number.MAX_SAFE_INTEGER);
    });
    // Read by nothing, they left the paths they name unlimited without a word.
    it('names a setting of a limiter RATE_LIMITERS does not declare, and how to declare it', () => {
      assert.throws(() => loadConfig({ cwd, env: { RATE_LIMIT_API_LIMIT: '2', RATE_LIMIT_API_PATHS: '/api/' } }), (error: Error) => /^RATE_LIMIT_API_(LIMIT|PATHS)=".*" is invalid: expected a setting of a declared limiter, and RATE_LIMITERS does not list "api": add it there \(RATE_LIMITERS=api\)\.$/.test(error.message));
      assert.throws(() => loadConfig({ cwd, env: { RATE_LIMITERS: 'search', RATE_LIMIT_SEARCH_LIMIT: '5', RATE_LIMIT_API_SEARCH_LIMIT: '2' } }), /RATE_LIMITERS=search,api_search\)/);
      const declared = loadConfig({ cwd, env: { RATE_LIMITERS: 'api_search', RATE_LIMIT_API_SEARCH_LIMIT: '2', RATE_LIMIT_STORAGE: 'memory', RATE_LIMIT_TIMEOUT: '100', RATE_LIMIT_SENSITIVE_LIMIT: '3' } });
      assert.equal(declared.rateLimiter.api_search?.limit, 2);
    });

    it('keeps a TRUSTED_HOSTS pattern whose quantifier holds a comma whole, as Symfony splits the list', () => {
      const config = loadConfig({ cwd, env: { TRUSTED_HOSTS: '^([a-z]{1,3}\\.)?example\\.com$ , ^localhost$' } });
      assert.deepEqual(config.trustedHosts, ['^([a-z]{1,3}\\.)?example\\.com$', '^localhost$']);
    });

    it('rejects a trusted proxy that is not an address, range or alias with KEEL_ERR_CONFIG_TRUSTED_PROXY', () => {
      assert.throws(() => loadConfig({ cwd, env: { TRUSTED_PROXIES: '127.0.0.1,proxy.local' } }), { code: 'KEEL_ERR_CONFIG_TRUSTED_PROXY' });
    });
  });
});

describe('maskSecrets', () => {
  it('masks secret-looking keys at any depth and leaves the rest', () => {
    const masked = maskSecrets({ APP_SECRET: 's', PORT: '8000', nested: { Authorization: 'Bearer x', list: [{ api_key: 'k', name: 'n' }] }, headers: { cookie: 'a=b' } });
    assert.deepEqual(masked, { APP_SECRET: '******', PORT: '8000', nested: { Authorization: '******', list: [{ api_key: '******', name: 'n' }] }, headers: { cookie: '******' } });
  });
});
