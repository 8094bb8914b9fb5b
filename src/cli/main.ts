/** The `keel` command's entry point (bin/keel.js imports it once tsx is registered). */
import { runCli } from './run-cli.js';

// Node ends a process whose event loop has emptied while a top-level await still waits with exit code 13,
// and says nothing: an application module whose own top-level await never settles does that to every command.
process.on('exit', () => {
  if (process.exitCode !== 13) return;
  process.stderr.write('error: the command could not finish: something it waited for can never happen (a top-level await in the application module, or in a module it imports, that never settles?)\n');
  process.exitCode = 1;
});

process.exitCode = await runCli(process.argv.slice(2));
