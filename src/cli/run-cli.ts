import { Command, CommanderError } from 'commander';
import { KEEL_VERSION } from '../internal/keel-version.js';
import { CliError, ReportedError } from './cli-error.js';
import { createProcessIo, type CliIo } from './cli-io.js';
import { registerConfigCommand } from './commands/config.js';
import { registerDebugRouterCommand } from './commands/debug-router.js';
import { registerProfilerCommands } from './commands/profiler.js';
import { registerRouterMatchCommand } from './commands/router-match.js';
import { registerServeCommand } from './commands/serve.js';
import { firstLine } from './load-app-module.js';
import { createStyle } from './style.js';

/** Exit codes: 0 done, 1 the command failed, 2 the command line is wrong. */
export const EXIT_OK = 0;
export const EXIT_FAILURE = 1;
export const EXIT_USAGE = 2;

export function createProgram(io: CliIo): Command {
  const errorStyle = createStyle(io.stderr, io.env);
  const program = new Command('keel')
    .description('keel application console: routes, profiles, configuration, server')
    .version(KEEL_VERSION, '-V, --version', "print keel's version")
    .showSuggestionAfterError(true)
    // Inherited by every command added below: commander throws instead of exiting, and writes to our streams.
    .exitOverride()
    .configureOutput({
      writeOut: (text) => io.stdout.write(text),
      writeErr: (text) => io.stderr.write(text),
      // One line, coloured up to its end: commander puts its "(Did you mean …?)" on a line of its own.
      outputError: (text, write) => write(`${errorStyle.red(text.trimEnd().replace(/\n+/g, ' '))}\n`),
    });
  registerDebugRouterCommand(program, io);
  registerRouterMatchCommand(program, io);
  registerProfilerCommands(program, io);
  registerServeCommand(program, io);
  registerConfigCommand(program, io);
  return program;
}

/**
 * Runs one command line and returns its exit code. Failures print one line on stderr (`error: …`), never
 * a stack trace; without a command, the help is printed.
 * @example process.exitCode = await runCli(['debug:router', '--format=json']);
 */
export async function runCli(argv: readonly string[], io: CliIo = createProcessIo()): Promise<number> {
  const program = createProgram(io);
  try {
    await program.parseAsync(argv.length === 0 ? ['--help'] : [...argv], { from: 'user' });
    return EXIT_OK;
  } catch (error) {
    // commander has already printed its own message (or the help, with exit code 0).
    if (error instanceof CommanderError) return error.exitCode === 0 ? EXIT_OK : EXIT_USAGE;
    if (error instanceof ReportedError) return EXIT_FAILURE;
    const style = createStyle(io.stderr, io.env);
    io.stderr.write(`${style.red('error:')} ${firstLine(error)}\n`);
    return error instanceof CliError ? error.exitCode : EXIT_FAILURE;
  }
}
