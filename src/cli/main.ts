/** The `keel` command's entry point (bin/keel.js imports it once tsx is registered). */
import { runCli } from './run-cli.js';

process.exitCode = await runCli(process.argv.slice(2));
