/**
 * keel's benchmark server: the demo application (its routes, its trusted-proxy settings) plus the matched
 * JSON route every peer also serves, in a temporary project directory. APP_ENV picks dev (profiler,
 * toolbar, debug page and log file all on) or prod (logs to a file in the project directory, so that a
 * pipe to the bench runner never weighs on the figures). KEEL_BENCH_CONFIG, JSON, adds settings of the app
 * (bench:profiler's variants: `{"KEEL_PROFILER":"0"}`…); the shell's own KEEL_* variables are not read, so
 * that a developer's settings never change a benchmark. READY names the profiler and toolbar settings taken.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createApp } from '../../src/app.js';
import { loadConfig } from '../../src/config/load-config.js';
import { Response } from '../../src/http/response.js';
import { openDestination } from '../../src/logging/log-destination.js';
import { createLogger } from '../../src/logging/create-logger.js';
import type { RouteDefinition } from '../../src/routing/route.js';
import { demoRoutes } from '../../demo/routes.js';
import { USER_JSON } from './peer-pages.js';
import { announceReady, answerRunnerQueries } from './server-signals.js';

const port = Number(process.env.PORT ?? 3000);
const appEnv = process.env.APP_ENV === 'prod' ? 'prod' : 'dev';
const projectDir = mkdtempSync(join(tmpdir(), 'keel-bench-'));
writeFileSync(
  join(projectDir, '.env'),
  ['TRUSTED_PROXIES=loopback,private_ranges', 'TRUSTED_HEADERS=x-forwarded-for,x-forwarded-host,x-forwarded-proto,x-forwarded-port', ''].join('\n'),
);

const overrides = JSON.parse(process.env.KEEL_BENCH_CONFIG ?? '{}') as Record<string, string>;
const config = loadConfig({ cwd: projectDir, env: { ...overrides, APP_ENV: appEnv } });
// dev: var/log/dev.log as usual, without the readable stderr copy (a terminal nicety, not recorded data).
// prod: the JSON lines go to var/log/prod.log instead of stdout.
const logger = createLogger({
  env: config.env,
  debug: config.debug,
  level: config.log.level,
  file: config.log.file,
  stderr: false,
  destination: appEnv === 'prod' ? openDestination(join(projectDir, 'var', 'log', 'prod.log'), { sync: false }) : undefined,
});

const benchRoutes: RouteDefinition[] = [
  ...demoRoutes,
  {
    name: 'api_user',
    path: '/api/users/{id}',
    methods: ['GET'],
    requirements: { id: '\\d+' },
    controller: (_request, params) => Response.json(USER_JSON((params as Record<string, string>).id ?? '')),
  },
];

const app = createApp({ config: { ...config, port, host: '127.0.0.1' }, routes: benchRoutes, logger });
await app.listen({ port, host: '127.0.0.1' });
answerRunnerQueries();
announceReady(`profiler=${app.profiler === undefined ? 'off' : 'on'} toolbar=${app.profiler !== undefined && config.profiler.toolbar ? 'on' : 'off'}`);

for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => {
    app.close().then(
      () => {
        rmSync(projectDir, { recursive: true, force: true });
        process.exit(0);
      },
      () => process.exit(1),
    );
  });
}
