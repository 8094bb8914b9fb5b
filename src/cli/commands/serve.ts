import { InvalidArgumentError, type Command } from 'commander';
import { createApp } from '../../app.js';
import { LOG_MESSAGES } from '../../logging/log-messages.js';
import { loadCliAppModule, loadCliConfig, type AppCommandOptions } from '../app-context.js';
import { CliError } from '../cli-error.js';
import type { CliIo } from '../cli-io.js';
import { firstLine } from '../load-app-module.js';
import { appOptions } from './app-options.js';

const DEFAULT_GRACE_MS = 10_000;
const LAST_RESORT_MS = 5_000;

interface ServeOptions extends AppCommandOptions {
  port?: number;
  host?: string;
}

/**
 * The server `npm start` runs, for any application module; stops cleanly on SIGINT or SIGTERM, and on an
 * exception or rejection left uncaught outside any request (logged; exit 1).
 */
export function registerServeCommand(program: Command, io: CliIo): void {
  const command = program
    .command('serve')
    .description('serve the application over HTTP until interrupted')
    .option('-p, --port <port>', 'port to listen on, 0 for any free port (default: PORT, else 8000)', parsePort)
    .option('--host <address>', 'address to listen on (default: HOST, else 127.0.0.1)');
  appOptions(command).action(async (options: ServeOptions) => {
    // The options stand for the PORT and HOST settings: a bad PORT in the environment is then never read.
    const env = { ...io.env };
    if (options.port !== undefined) env.PORT = String(options.port);
    if (options.host !== undefined) env.HOST = options.host;
    const config = loadCliConfig({ ...io, env }, options);
    const module = await loadCliAppModule(io, options);
    let app;
    try {
      app = createApp({ config, routes: module.routes, subscribers: module.subscribers });
    } catch (error) {
      throw new CliError(firstLine(error));
    }
    let server;
    try {
      server = await app.listen();
    } catch (error) {
      await app.close();
      throw new CliError(`cannot listen on ${config.host}:${config.port}: ${firstLine(error)}`);
    }
    // In prod, stdout carries the logger's JSON lines only, which a log shipper reads one by one: the
    // command's own lines go to stderr there.
    const say = config.env === 'prod' ? io.stderr : io.stdout;
    say.write(`keel (${config.env}, debug ${config.debug ? 'on' : 'off'}) listening on ${server.url}\n`);
    // What the application leaves uncaught outside any request (fire-and-forget work that fails) would end
    // the process there and then, cutting the requests in flight, with no line in the log: it is logged,
    // and the server stops as on a signal, then exits 1.
    let failed = false;
    const strayFailure = new Promise<string>((resolve) =>
      io.onStrayFailure((error, kind) => {
        app.logger.critical(kind === 'uncaughtException' ? LOG_MESSAGES.uncaughtOutsideRequest : LOG_MESSAGES.unhandledRejectionOutsideRequest, { exception: error });
        failed = true;
        resolve(kind);
      }),
    );
    const signal = await Promise.race([io.waitForStop(), strayFailure]);
    say.write(`${signal}: stopping\n`);
    // The server cuts lingering connections at its grace period, and a controller that has not answered by
    // then is no longer waited for; this is the last resort after it, for a store or a terminate listener
    // that never settles (the same as under node:cluster). A timer that holds the
    // process: with nothing else left to wait for, node would end it with code 13 for the unsettled stop.
    const lastResortMs = (config.server?.gracePeriod ?? DEFAULT_GRACE_MS) + LAST_RESORT_MS;
    const lastResort = setTimeout(() => {
      io.stderr.write(`error: still stopping ${lastResortMs} ms after ${signal}: exiting\n`);
      io.exit(1);
    }, lastResortMs);
    try {
      await app.close();
    } finally {
      clearTimeout(lastResort);
    }
    // The stop is over: what the application still runs (a controller the grace period gave up on, and its
    // timers) would otherwise keep the process alive for as long as it runs, for ever if it never ends.
    io.exit(failed ? 1 : 0);
  });
}

function parsePort(value: string): number {
  const port = Number(value);
  if (!/^\d+$/.test(value) || port > 65_535) throw new InvalidArgumentError('a port is a whole number from 0 to 65535.');
  return port;
}
