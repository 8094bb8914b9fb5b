import type { Command } from 'commander';
import { resolveEnvVars } from '../../config/load-config.js';
import { declaredDotenvNames } from '../../config/resolve-env-vars.js';
import { configWithoutDotenv } from '../../config/config.js';
import { maskSettings } from '../../config/mask-secrets.js';
import { loadCliConfig, type AppCommandOptions } from '../app-context.js';
import type { CliIo } from '../cli-io.js';
import { formatOption, toJson, type OutputFormat } from '../output-format.js';
import { createStyle } from '../style.js';
import { renderDefinitionList } from '../table.js';
import { oneLine } from '../../logging/one-line.js';

/**
 * The effective configuration, and the variables the project's `.env` files define with their effective
 * values (the real environment wins, as at start-up). Secret-looking values are masked.
 */
export function registerConfigCommand(program: Command, io: CliIo): void {
  program
    .command('config')
    .description('print the effective configuration (secrets masked), rate limiters included')
    .addOption(formatOption())
    .option('-e, --env <env>', 'APP_ENV to resolve the configuration for (dev, prod, test)')
    .action((options: AppCommandOptions & { format: OutputFormat }) => {
      const config = loadCliConfig(io, options);
      const env = options.env === undefined ? io.env : { ...io.env, APP_ENV: options.env };
      const effective = resolveEnvVars(config.projectDir, env);
      // The cascade start-up ran, from the same environment: a .env.local that chose the test environment was
      // read before it chose (asked with APP_ENV=test, it would be skipped, its variables unlisted).
      const declared = declaredDotenvNames(config.projectDir, env);
      // A file's APP_ENV shows the environment being resolved, which --env or the real environment chose.
      const dotenv = maskSettings(Object.fromEntries(declared.map((name) => [name, name === 'APP_ENV' ? config.env : (effective[name] ?? '')])));
      const masked = maskSettings(configWithoutDotenv(config));
      if (options.format === 'json') {
        io.stdout.write(toJson({ config: masked, dotenv }));
        return;
      }
      const style = createStyle(io.stdout, io.env);
      io.stdout.write(`${style.yellow(style.bold('Configuration'))}\n${renderDefinitionList(printable(flatten(masked)), style)}`);
      const variables = printable(Object.entries(dotenv));
      io.stdout.write(`\n${style.yellow(style.bold('Variables from .env files'))}\n`);
      io.stdout.write(variables.length === 0 ? 'none\n' : renderDefinitionList(variables, style));
    });
}

/**
 * Values with their control characters escaped as oneLine() writes them: a .env file (one a cloned project
 * brings) or the environment may hold an escape sequence that would act on the terminal. A value's own
 * lines stay lines, which the definition list indents.
 */
function printable(entries: readonly (readonly [string, string])[]): [string, string][] {
  return entries.map(([name, value]) => [name, value.split('\n').map(oneLine).join('\n')]);
}

/** `{ profiler: { enabled: true } }` → `profiler.enabled  true`, arrays as comma lists. */
function flatten(value: object, prefix = ''): [string, string][] {
  const out: [string, string][] = [];
  for (const [key, item] of Object.entries(value)) {
    const name = prefix === '' ? key : `${prefix}.${key}`;
    if (Array.isArray(item)) out.push([name, item.length === 0 ? '(none)' : item.join(', ')]);
    else if (item !== null && typeof item === 'object') out.push(...flatten(item, name));
    else out.push([name, item === undefined ? '(unset)' : String(item)]);
  }
  return out;
}
