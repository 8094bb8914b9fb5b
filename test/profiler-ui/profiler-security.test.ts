import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { createApp } from '../../src/app.js';
import { loadConfig } from '../../src/config/load-config.js';
import { createLogger } from '../../src/logging/create-logger.js';
import { demoRoutes } from '../../demo/routes.js';
import { rawRequest } from '../helpers/raw-http.js';

function createDemoApp(env: Record<string, string>) {
  const projectDir = mkdtempSync(join(tmpdir(), 'keel-security-'));
  const lines: string[] = [];
  const config = loadConfig({ cwd: projectDir, env });
  const logger = createLogger({ env: config.env, debug: config.debug, stderr: false, destination: { write: (line: string) => lines.push(line) } });
  const app = createApp({ config, routes: demoRoutes, logger });
  return { app, lines, tearDown: async () => { await app.close(); rmSync(projectDir, { recursive: true, force: true }); } };
}

describe('profiler security', () => {
  it('mounts neither the profiler nor the toolbar when debug is off, whatever the profiler settings say', async () => {
    const { app, tearDown } = createDemoApp({ APP_ENV: 'prod', APP_DEBUG: '0', KEEL_PROFILER: '1', KEEL_TOOLBAR: '1' });
    try {
      assert.equal(app.profiler, undefined);
      assert.equal([...app.routes].some((route) => route.name.startsWith('_profiler') || route.name === '_wdt'), false);
      const server = await app.listen({ port: 0, host: '127.0.0.1' });
      for (const target of ['/_profiler/', '/_profiler/latest', '/_wdt/abcdef', '/_profiler/assets/profiler.css']) {
        const response = await rawRequest(server.port, { path: target, headers: [['host', 'localhost']] });
        assert.equal(response.status, 404, target);
        assert.equal(response.header('x-debug-token'), undefined, target);
      }
      const home = await rawRequest(server.port, { path: '/', headers: [['host', 'localhost']] });
      assert.doesNotMatch(home.body, /sf-toolbar/);
      assert.equal(home.header('x-debug-token-link'), undefined);
    } finally {
      await tearDown();
    }
  });

  it('warns loudly when debug is on and the server listens beyond loopback', async () => {
    const { app, lines, tearDown } = createDemoApp({ APP_ENV: 'dev' });
    try {
      await app.listen({ port: 0, host: '0.0.0.0' });
      await app.logger.flush();
      assert.ok(lines.some((line) => /WARNING: debug mode is on and the server listens on a non-loopback address/.test(line)), lines.join(''));
    } finally {
      await tearDown();
    }
  });

  it('stays quiet about it on loopback, an IPv4-mapped address of it included', async () => {
    for (const host of ['127.0.0.1', '::ffff:127.0.0.1']) {
      const { app, lines, tearDown } = createDemoApp({ APP_ENV: 'dev' });
      try {
        await app.listen({ port: 0, host });
        await app.logger.flush();
        assert.equal(lines.some((line) => /non-loopback/.test(line)), false, host);
      } finally {
        await tearDown();
      }
    }
  });
});
