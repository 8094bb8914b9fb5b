import assert from 'node:assert/strict';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { ConfigError, loadConfig, maskSecrets, resolveEnvVars } from './load-config.js';

const dirs: string[] = [];
after(() => dirs.forEach((dir) => rmSync(dir, { recursive: true, force: true })));

function project(files: Record<string, string>): string {
  const dir = mkdtempSync(join(tmpdir(), 'keel-config-'));
  dirs.push(dir);
  for (const [name, content] of Object.entries(files)) writeFileSync(join(dir, name), content);
  return dir;
}

function invalid(fn: () => unknown, variable: string): void {
  assert.throws(fn, (error: Error & { code?: string }) => {
    assert.equal(error.code, 'KEEL_ERR_CONFIG_INVALID');
    assert.match(error.message, new RegExp(`^${variable}=`));
    assert.doesNotMatch(error.message, /\n/);
    return true;
  });
}

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

  describe('the .env cascade', () => {
    it("reads KEEL_EDITOR as an editor's name or a link format, and refuses one that is neither", () => {
      assert.equal(loadConfig({ cwd: project({}), env: {} }).editor, undefined);
      assert.equal(loadConfig({ cwd: project({}), env: { KEEL_EDITOR: 'vscode' } }).editor, 'vscode://file/%f:%l');
      assert.equal(loadConfig({ cwd: project({ '.env': 'KEEL_EDITOR=myide://open?f=%f&l=%l\n' }), env: {} }).editor, 'myide://open?f=%f&l=%l');
      assert.throws(() => loadConfig({ cwd: project({}), env: { KEEL_EDITOR: 'javascript:alert(%f)' } }), (error: unknown) => error instanceof ConfigError && /KEEL_EDITOR/.test(error.message) && /vscode, /.test(error.message));
    });

    it('lets .env.local override .env, .env.<env> override both, and .env.<env>.local override all', () => {
      const cwd = project({
        '.env': 'PORT=1\nHOST=a\nBODY_LIMIT=10\nKEEL_PROFILER_MAX_RECORDS=7\n',
        '.env.local': 'PORT=2\nHOST=b\nBODY_LIMIT=20\n',
        '.env.dev': 'PORT=3\nHOST=c\n',
        '.env.dev.local': 'PORT=4\n',
      });
      const config = loadConfig({ cwd, env: {} });
      assert.equal(config.port, 4);
      assert.equal(config.host, 'c');
      assert.equal(config.bodyLimit, 20);
      assert.equal(config.profiler.maxRecords, 7);
    });

    it('lets the real environment win over every file', () => {
      const cwd = project({ '.env': 'PORT=1\n', '.env.dev.local': 'PORT=4\n' });
      assert.equal(loadConfig({ cwd, env: { PORT: '9000' } }).port, 9000);
    });

    it('puts the application defaults below every file', () => {
      const cwd = project({ '.env': 'HOST=from-file\n' });
      const config = loadConfig({ cwd, env: {}, defaults: { HOST: 'default', TRUSTED_HEADERS: 'x-forwarded-host' } });
      assert.equal(config.host, 'from-file');
      assert.deepEqual(config.trustedHeaders, ['x-forwarded-host']);
    });

    it('names the environment files in lower case whatever the case of APP_ENV, as the environment itself', () => {
      const cwd = project({ '.env': 'PORT=1\n', '.env.local': 'PORT=2\n', '.env.prod': 'PORT=9100\n', '.env.test': 'HOST=from-test\n' });
      assert.equal(loadConfig({ cwd, env: { APP_ENV: 'PROD' } }).port, 9100);
      const test = loadConfig({ cwd, env: { APP_ENV: 'TEST' } });
      assert.equal(test.port, 1, '.env.local is not read in test');
      assert.equal(test.host, 'from-test');
    });

    // Trimmed and blank-as-unset, as the environment itself is read: `set APP_ENV=prod && …` on Windows
    // leaves a trailing space, which had run prod without .env.prod.
    it('names the environment files from APP_ENV trimmed, and from dev when it is blank', () => {
      const cwd = project({ '.env': 'PORT=8000\n', '.env.prod': 'PORT=9000\n', '.env.dev': 'PORT=7000\n', '.env.test': 'PORT=6000\n', '.env.local': 'HOST=from-local\n' });
      for (const appEnv of ['prod ', ' prod']) assert.deepEqual(pick(loadConfig({ cwd, env: { APP_ENV: appEnv } })), { env: 'prod', port: 9000, host: 'from-local' }, JSON.stringify(appEnv));
      for (const appEnv of ['', '  ']) assert.deepEqual(pick(loadConfig({ cwd, env: { APP_ENV: appEnv } })), { env: 'dev', port: 7000, host: 'from-local' }, JSON.stringify(appEnv));
      assert.notEqual(loadConfig({ cwd, env: { APP_ENV: 'test ' } }).host, 'from-local', '.env.local is not read in test');
    });

    it('picks the environment files from APP_ENV set in .env.local', () => {
      const cwd = project({ '.env': 'APP_ENV=dev\n', '.env.local': 'APP_ENV=prod\n', '.env.prod': 'PORT=8080\n', '.env.dev': 'PORT=1\n' });
      const config = loadConfig({ cwd, env: {} });
      assert.equal(config.env, 'prod');
      assert.equal(config.port, 8080);
    });

    it('skips .env.local in the test environment', () => {
      const cwd = project({ '.env': 'PORT=1\n', '.env.local': 'PORT=2\n', '.env.test': 'HOST=t\n' });
      const config = loadConfig({ cwd, env: { APP_ENV: 'test' } });
      assert.equal(config.port, 1);
      assert.equal(config.host, 't');
      assert.equal(config.log.file, join(config.varDir, 'log', 'test.log'));
    });

    it('expands references to earlier files, where the real environment wins', () => {
      const cwd = project({ '.env': 'REDIS_HOST=10.0.0.1\n', '.env.local': 'RATE_LIMIT_STORAGE="redis://${REDIS_HOST}:6379"\n' });
      assert.equal(loadConfig({ cwd, env: {} }).rateLimiterStorage?.url, 'redis://10.0.0.1:6379');
      assert.equal(loadConfig({ cwd, env: { REDIS_HOST: 'cache' } }).rateLimiterStorage?.url, 'redis://cache:6379');
    });

    it('sees the default APP_ENV from .env.local on, as Symfony sets it once .env is read', () => {
      const cwd = project({ '.env.local': 'LOG_FILE=var/log/${APP_ENV}-app.log\n' });
      assert.equal(loadConfig({ cwd, env: {} }).log.file, join(cwd, 'var', 'log', 'dev-app.log'));
    });

    it('lets files override the variables an earlier Dotenv load set (SYMFONY_DOTENV_VARS), and no other', () => {
      const cwd = project({ '.env': 'HOST=from-file\nPORT=1\n' });
      const config = loadConfig({ cwd, env: { HOST: 'stale', PORT: '7000', SYMFONY_DOTENV_VARS: 'HOST' } });
      assert.deepEqual([config.host, config.port], ['from-file', 7000]);
    });

    it('reads .env.dist when there is no .env, and ignores it beside one', () => {
      assert.equal(loadConfig({ cwd: project({ '.env.dist': 'PORT=1234\n' }), env: {} }).port, 1234);
      assert.equal(loadConfig({ cwd: project({ '.env': 'PORT=1\n', '.env.dist': 'PORT=2\n' }), env: {} }).port, 1);
    });

    it('keeps the variables the files gave, with their final values, apart: not the real environment\'s, not the default APP_ENV', () => {
      const cwd = project({ '.env': 'PORT=1\nGREETING=hi\nHOST=0.0.0.0\n', '.env.local': 'GREETING=hello\n', '.env.dev': 'EXTRA=${GREETING}!\n' });
      const config = loadConfig({ cwd, env: { HOST: '127.0.0.2', UNRELATED: 'x' } });
      assert.deepEqual({ ...config.dotenvVars }, { PORT: '1', GREETING: 'hello', EXTRA: 'hello!' });
      assert.equal(config.host, '127.0.0.2');
      assert.deepEqual({ ...loadConfig({ cwd: project({}), env: {} }).dotenvVars }, {});
    });

    it('stops after .env.local when APP_ENV is local, as Symfony does', () => {
      const cwd = project({ '.env': 'APP_ENV=local\n', '.env.local': 'A=1\n', '.env.local.local': 'B=2\n' });
      const vars = resolveEnvVars(cwd, {});
      assert.deepEqual([vars.A, vars.B], ['1', undefined]);
    });

    it('refuses a file that breaks Symfony\'s syntax, naming the file and the line', () => {
      const cwd = project({ '.env': 'PORT=1\n', '.env.local': 'PORT=2\nHOST = 0.0.0.0\n' });
      assert.throws(() => loadConfig({ cwd, env: {} }), (error: unknown) => {
        assert.ok(error instanceof ConfigError);
        assert.equal(error.code, 'KEEL_ERR_CONFIG_INVALID');
        assert.equal(error.message, `Whitespace characters are not supported after the variable name in "${join(cwd, '.env.local')}" at line 2.`);
        return true;
      });
    });

    // Read as UTF-8, `p\xe4ss` (Latin-1) would be `p\ufffdss`: another password, and no word said.
    it('refuses a file that is not UTF-8, naming the file and the line', () => {
      const cwd = project({ '.env': 'PORT=1\n' });
      writeFileSync(join(cwd, '.env.local'), Buffer.concat([Buffer.from('PORT=2\nDB_PASS=p'), Buffer.from([0xe4]), Buffer.from('ss\n')]));
      assert.throws(() => loadConfig({ cwd, env: {} }), (error: unknown) => {
        assert.ok(error instanceof ConfigError);
        assert.equal(error.message, `The environment file is not UTF-8 (save it as UTF-8) in "${join(cwd, '.env.local')}" at line 2.`);
        return true;
      });
      writeFileSync(join(cwd, '.env.local'), 'DB_PASS=päss\n');
      assert.equal(loadConfig({ cwd, env: {} }).dotenvVars?.DB_PASS, 'päss');
    });

    it('refuses a command substitution rather than running it', () => {
      const cwd = project({});
      writeFileSync(join(cwd, '.env'), `LOG_FILE=$(touch ${join(cwd, 'ran')})\n`);
      assert.throws(() => loadConfig({ cwd, env: {} }), { code: 'KEEL_ERR_CONFIG_INVALID', message: /^Command substitution is not supported.* at line 1\.$/ });
      assert.equal(existsSync(join(cwd, 'ran')), false);
    });

    it('refuses a .env that is not a readable file', () => {
      const cwd = project({});
      mkdirSync(join(cwd, '.env'));
      assert.throws(() => loadConfig({ cwd, env: {} }), { code: 'KEEL_ERR_CONFIG_INVALID', message: `Unable to read the environment file (EISDIR): "${join(cwd, '.env')}".` });
    });

    it('passes over a .env.local, .env.<env> or .env.<env>.local that is not a regular file, as Symfony does', () => {
      const cwd = project({ '.env': 'PORT=1\n' });
      for (const name of ['.env.local', '.env.dev', '.env.dev.local']) mkdirSync(join(cwd, name));
      assert.equal(loadConfig({ cwd, env: {} }).port, 1);
    });

    it('does not modify the environment it was given', () => {
      const env: Record<string, string> = {};
      loadConfig({ cwd: project({ '.env': 'PORT=1\n' }), env });
      assert.deepEqual(env, {});
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
    it('names KEEL_PROFILER_STORAGE when its Redis URL has a port that is no number', () => invalid(() => loadConfig({ cwd, env: { KEEL_PROFILER_STORAGE: 'redis://127.0.0.1:notaport' } }), 'KEEL_PROFILER_STORAGE'));
    it('names SHUTDOWN_GRACE_MS when no timer can hold it', () => invalid(() => loadConfig({ cwd, env: { SHUTDOWN_GRACE_MS: '3000000000' } }), 'SHUTDOWN_GRACE_MS'));
    it('names SEND_TIMEOUT_MS when no timer can hold it, or it is zero', () => {
      invalid(() => loadConfig({ cwd, env: { SEND_TIMEOUT_MS: '3000000000' } }), 'SEND_TIMEOUT_MS');
      invalid(() => loadConfig({ cwd, env: { SEND_TIMEOUT_MS: '0' } }), 'SEND_TIMEOUT_MS');
      assert.equal(loadConfig({ cwd, env: {} }).server?.sendTimeout, 60_000);
    });
    it('names the interval when it is zero', () => invalid(() => loadConfig({ cwd, env: { RATE_LIMIT_DEFAULT_INTERVAL: '0' } }), 'RATE_LIMIT_DEFAULT_INTERVAL'));
    // Read by nothing, they left the paths they name unlimited without a word.
    it('names a setting of a limiter RATE_LIMITERS does not declare, and how to declare it', () => {
      assert.throws(() => loadConfig({ cwd, env: { RATE_LIMIT_API_LIMIT: '2', RATE_LIMIT_API_PATHS: '/api/' } }), (error: Error) => /^RATE_LIMIT_API_(LIMIT|PATHS)=".*" is invalid: expected a setting of a declared limiter, and RATE_LIMITERS does not list "api": add it there \(RATE_LIMITERS=api\)\.$/.test(error.message));
      assert.throws(() => loadConfig({ cwd, env: { RATE_LIMITERS: 'search', RATE_LIMIT_SEARCH_LIMIT: '5', RATE_LIMIT_API_SEARCH_LIMIT: '2' } }), /RATE_LIMITERS=search,api_search\)/);
      const declared = loadConfig({ cwd, env: { RATE_LIMITERS: 'api_search', RATE_LIMIT_API_SEARCH_LIMIT: '2', RATE_LIMIT_STORAGE: 'memory', RATE_LIMIT_TIMEOUT: '100', RATE_LIMIT_SENSITIVE_LIMIT: '3' } });
      assert.equal(declared.rateLimiter.api_search?.limit, 2);
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

function pick({ env, port, host }: { env: string; port: number; host: string }): { env: string; port: number; host: string } {
  return { env, port, host };
}
