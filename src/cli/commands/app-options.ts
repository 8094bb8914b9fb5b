import type { Command } from 'commander';

/** `--app` and `--env`, on every command that builds the application. */
export function appOptions(command: Command): Command {
  return command
    .option('--app <module>', 'application module exporting "routes" (default: KEEL_APP, then "keel.app" in package.json)')
    .option('-e, --env <env>', 'APP_ENV to load the configuration for (dev, prod, test)');
}
