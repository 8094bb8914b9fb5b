/**
 * The demo application `npm start` runs: the reference application's routes on keel, in development
 * mode by default, configured from the environment and the `.env` files of the working directory.
 * `npm run start:prod` runs it in prod: one worker per core (KEEL_WORKERS or WEB_CONCURRENCY to change
 * it) when the rate limits are shared through Redis (RATE_LIMIT_STORAGE), else one process; profiler off,
 * JSON log lines on stdout. SIGTERM or SIGINT stops it gracefully.
 */
import { createApp } from '../src/app.js';
import { loadConfig } from '../src/config/load-config.js';
import { createLogger } from '../src/logging/create-logger.js';
import { resolveWorkerCount, runServer } from '../src/server/cluster.js';
import { demoRoutes } from './routes.js';

const config = loadConfig();
// Rate limits counted in memory cannot be shared by workers (keel refuses them there): without Redis and
// without a count asked for, the demo serves from one process instead of failing in every worker.
const workers = resolveWorkerCount(process.env, config);
const oneForMemoryLimits = workers === 1 && resolveWorkerCount({ ...config.dotenvVars, ...process.env }, config.env) > 1;

await runServer({
  workers,
  gracePeriod: config.server?.gracePeriod,
  // The cluster's primary serves nothing: its own few lines (workers started, died, stopped) only, where
  // the workers' lines go (var/log/dev.log in dev, stdout in prod), without the workers' stderr copy.
  logger: workers > 1 ? createLogger({ env: config.env, debug: false, level: config.log.level, file: config.log.file, stderr: false }) : undefined,
  async start() {
    const app = createApp({ config, routes: demoRoutes });
    const server = await app.listen();
    if (oneForMemoryLimits) app.logger.info('one worker: rate limits are counted in memory; set RATE_LIMIT_STORAGE=redis://… for one worker per core');
    // In prod, stdout carries JSON lines only: the logger's own `server listening` line says the same.
    if (config.env !== 'prod') process.stdout.write(`keel demo (${config.env}, debug ${config.debug ? 'on' : 'off'}) listening on ${server.url}\n`);
    return app;
  },
});
