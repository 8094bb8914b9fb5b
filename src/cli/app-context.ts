import { createApp, type App } from '../app.js';
import type { AppEnv, KeelConfig } from '../config/config.js';
import { loadConfig } from '../config/load-config.js';
import { createLogger } from '../logging/create-logger.js';
import type { CliIo } from './cli-io.js';
import { CliError, UsageError } from './cli-error.js';
import { firstLine, loadAppModule, resolveAppModulePath, type AppModule } from './load-app-module.js';

/** The options every command that reads the application takes. */
export interface AppCommandOptions {
  app?: string;
  env?: string;
}

const APP_ENVS: readonly AppEnv[] = ['dev', 'prod', 'test'];

/**
 * The configuration the server would run with from this project directory: the `.env` cascade and the
 * environment, `--env` standing in for APP_ENV. A configuration error becomes a one-line failure.
 */
export function loadCliConfig(io: CliIo, { env }: AppCommandOptions): KeelConfig {
  if (env !== undefined && !(APP_ENVS as readonly string[]).includes(env)) {
    throw new UsageError(`option '--env <env>' argument '${env}' is invalid. Allowed choices are ${APP_ENVS.join(', ')}.`);
  }
  try {
    return loadConfig({ cwd: io.cwd, env: env === undefined ? io.env : { ...io.env, APP_ENV: env } });
  } catch (error) {
    throw new CliError(firstLine(error));
  }
}

export async function loadCliAppModule(io: CliIo, { app }: AppCommandOptions): Promise<AppModule> {
  const { path } = resolveAppModulePath({ option: app, env: io.env, cwd: io.cwd });
  return loadAppModule(path, io.cwd);
}

/**
 * The application as `keel serve` would build it, with a logger that writes nothing: the route table
 * then includes what the configuration adds (the profiler's and the error preview's routes in debug).
 */
export async function buildQuietApp(io: CliIo, options: AppCommandOptions): Promise<App> {
  const config = loadCliConfig(io, options);
  const module = await loadCliAppModule(io, options);
  try {
    return createApp({
      config,
      routes: module.routes,
      subscribers: module.subscribers,
      // Nothing is served: nothing to log, and stdout belongs to the command's output.
      logger: createLogger({ env: config.env, debug: config.debug, stderr: false, destination: { write: () => undefined } }),
    });
  } catch (error) {
    throw new CliError(firstLine(error));
  }
}
