import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createApp, type App } from '../../src/app.js';
import { loadConfig } from '../../src/config/load-config.js';
import { createLogger } from '../../src/logging/create-logger.js';
import type { RouteDefinition } from '../../src/routing/route.js';
import { demoRoutes } from '../../demo/routes.js';

export interface RunningDemo {
  app: App;
  port: number;
  /** The project directory: var/log and var/profiler live here. */
  projectDir: string;
  close(): Promise<void>;
}

/**
 * Starts the demo application on a free port of 127.0.0.1 over real TCP, in its own temporary project
 * directory (its own var/), configured like the committed demo `.env`: loopback and private ranges
 * trusted, X-Forwarded-For/Host/Proto/Port read from them. `extraRoutes` adds what a test needs beside the
 * demo's routes (a streamed response, an upload).
 */
export async function startDemo(env: Record<string, string> = {}, extraRoutes: RouteDefinition[] = []): Promise<RunningDemo> {
  const projectDir = mkdtempSync(join(tmpdir(), 'keel-demo-'));
  writeFileSync(
    join(projectDir, '.env'),
    [
      'TRUSTED_PROXIES=loopback,private_ranges',
      'TRUSTED_HEADERS=x-forwarded-for,x-forwarded-host,x-forwarded-proto,x-forwarded-port',
      'RATE_LIMIT_DEFAULT_PATHS=/api/',
      '',
    ].join('\n'),
  );
  const config = loadConfig({ cwd: projectDir, env: { APP_ENV: 'dev', ...env } });
  // The log file is written as in dev; the readable copy on stderr would only clutter test output.
  const logger = createLogger({ env: config.env, debug: config.debug, level: config.log.level, file: config.log.file, stderr: false });
  const app = createApp({ config: { ...config, port: 0, host: '127.0.0.1' }, routes: [...demoRoutes, ...extraRoutes], logger });
  const server = await app.listen({ port: 0, host: '127.0.0.1' });
  return {
    app,
    port: server.port,
    projectDir,
    async close() {
      await app.close();
      rmSync(projectDir, { recursive: true, force: true });
    },
  };
}
