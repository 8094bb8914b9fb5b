import type { Command } from 'commander';
import type { Route } from '../../routing/route.js';
import { buildQuietApp, type AppCommandOptions } from '../app-context.js';
import { CliError } from '../cli-error.js';
import type { CliIo } from '../cli-io.js';
import { describeRoute, routeDetails, routeRow } from '../describe-route.js';
import { formatOption, toJson, type OutputFormat } from '../output-format.js';
import { createStyle } from '../style.js';
import { renderDefinitionList, renderTable } from '../table.js';
import { appOptions } from './app-options.js';
import { didYouMean } from '../../internal/closest-name.js';

interface DebugRouterOptions extends AppCommandOptions {
  format: OutputFormat;
  showControllers?: boolean;
}

export function registerDebugRouterCommand(program: Command, io: CliIo): void {
  const command = program
    .command('debug:router')
    .description('list the routes in matching order, or show one route in full')
    .argument('[name]', 'a route name, or part of one (several matches are listed)')
    .addOption(formatOption())
    .option('--show-controllers', 'add a controller column to the table');
  appOptions(command).action(async (name: string | undefined, options: DebugRouterOptions) => {
    const app = await buildQuietApp(io, options);
    try {
      const routes = [...app.routes];
      const style = createStyle(io.stdout, io.env);
      const found = name === undefined || name === '' ? routes : findRoutes(routes, name);
      if (found.length === 1 && name) {
        const route = describeRoute(found[0]!);
        io.stdout.write(options.format === 'json' ? toJson(route) : renderDefinitionList(routeDetails(route), style));
        return;
      }
      const described = found.map(describeRoute);
      if (options.format === 'json') {
        io.stdout.write(toJson(Object.fromEntries(described.map((route) => [route.name, route]))));
        return;
      }
      const headers = ['Name', 'Method', 'Scheme', 'Host', 'Path', 'Requirements'];
      if (options.showControllers) headers.push('Controller');
      io.stdout.write(renderTable(headers, described.map((route) => routeRow(route, { controller: options.showControllers })), style));
    } finally {
      await app.close();
    }
  });
}

/**
 * By exact name, else the routes whose name contains the text, in any case: one is shown in full, several
 * as a table, as Symfony's debug:router does without a prompt.
 */
function findRoutes(routes: readonly Route[], name: string): Route[] {
  const exact = routes.find((route) => route.name === name);
  if (exact !== undefined) return [exact];
  const needle = name.toLowerCase();
  const partial = routes.filter((route) => route.name.toLowerCase().includes(needle));
  // A misspelt name contains no part of the one meant: say which it most likely is.
  if (partial.length === 0) throw new CliError(`route "${name}" does not exist${didYouMean(name, routes.map((route) => route.name))}`);
  return partial;
}
