import assert from 'node:assert/strict';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { ConfigError, loadConfig, resolveEnvVars } from './load-config.js';
import { pick, project } from './load-config.fixture.js';

describe('loadConfig', () => {
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
});
