import { existsSync, readFileSync } from 'node:fs';
import { isAbsolute, join, relative, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Subscriber } from '../kernel/event-dispatcher.js';
import type { RouteDefinition } from '../routing/route.js';
import { CliError } from './cli-error.js';

/** What the command line needs from an application: its route table and its own listeners. */
export interface AppModule {
  /** Absolute path of the module. */
  path: string;
  routes: RouteDefinition[];
  subscribers: Subscriber[];
}

export type AppModuleSource = '--app' | 'KEEL_APP' | 'package.json';

/**
 * Where the application module is, first found wins: the `--app` option, the `KEEL_APP` environment
 * variable, then `"keel": { "app": "…" }` in the project's package.json. Relative paths are relative to
 * the project directory.
 */
export function resolveAppModulePath({ option, env, cwd }: { option?: string; env: Record<string, string | undefined>; cwd: string }): { path: string; source: AppModuleSource } {
  if (option !== undefined && option !== '') return { path: resolve(cwd, option), source: '--app' };
  if (env.KEEL_APP !== undefined && env.KEEL_APP !== '') return { path: resolve(cwd, env.KEEL_APP), source: 'KEEL_APP' };
  const fromPackage = readPackageAppField(cwd);
  if (fromPackage !== undefined) return { path: resolve(cwd, fromPackage), source: 'package.json' };
  throw new CliError('no application module: pass --app <module>, set KEEL_APP, or add "keel": { "app": "<module>" } to package.json');
}

function readPackageAppField(cwd: string): string | undefined {
  const path = join(cwd, 'package.json');
  if (!existsSync(path)) return undefined;
  let manifest: unknown;
  try {
    manifest = JSON.parse(readFileSync(path, 'utf8'));
  } catch (error) {
    throw new CliError(`package.json is not valid JSON (${(error as Error).message})`);
  }
  // Any JSON value parses: `null`, a list, a number name no fields.
  if (typeof manifest !== 'object' || manifest === null || Array.isArray(manifest)) throw new CliError('package.json must hold a JSON object');
  const keel = (manifest as { keel?: unknown }).keel;
  if (keel === undefined) return undefined;
  const app = (keel as { app?: unknown } | null)?.app;
  if (typeof app !== 'string' || app === '') throw new CliError('package.json: "keel.app" must be the path of the application module');
  return app;
}

/**
 * Imports the application module and finds its route table: the export named `routes`, else the default
 * export, else the only export whose name ends in `Routes` (the demo's `demoRoutes`). An exported
 * `subscribers` array adds the application's own kernel listeners.
 */
export async function loadAppModule(path: string, cwd: string): Promise<AppModule> {
  const shown = isAbsolute(path) ? relative(cwd, path) || path : path;
  if (!existsSync(path)) throw new CliError(`application module "${shown}" does not exist`);
  let exports: Record<string, unknown>;
  try {
    exports = (await import(pathToFileURL(path).href)) as Record<string, unknown>;
  } catch (error) {
    throw new CliError(`cannot load application module "${shown}": ${firstLine(error)}${moduleTypeHint(error, path)}`);
  }
  const routes = findRoutes(exports, shown);
  if (routes === undefined) {
    throw new CliError(`application module "${shown}" exports no route table: export "routes", an array of route definitions`);
  }
  const subscribers = exports.subscribers;
  if (subscribers !== undefined && !Array.isArray(subscribers)) throw new CliError(`application module "${shown}": "subscribers" must be an array`);
  return { path, routes, subscribers: (subscribers ?? []) as Subscriber[] };
}

function findRoutes(exports: Record<string, unknown>, shown: string): RouteDefinition[] | undefined {
  if (Array.isArray(exports.routes)) return exports.routes as RouteDefinition[];
  if (Array.isArray(exports.default)) return exports.default as RouteDefinition[];
  const named = Object.entries(exports).filter(([name, value]) => name.endsWith('Routes') && Array.isArray(value));
  // Tables split by area (apiRoutes, adminRoutes) are not merged: their order is the matching order.
  if (named.length > 1) {
    const names = named.map(([name]) => name);
    throw new CliError(`application module "${shown}" exports several route tables (${names.join(', ')}): export the one to serve as "routes", such as \`export const routes = [...${names.join(', ...')}]\``);
  }
  return named.length === 1 ? (named[0]![1] as RouteDefinition[]) : undefined;
}

export function firstLine(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  const [first = '', second] = message.split('\n').filter((line) => line.trim() !== '');
  // `Transform failed with 1 error:` says nothing without the line that follows: where, and what.
  return first.endsWith(':') && second !== undefined ? `${first} ${second.trim()}` : first;
}

// A `.ts` module of a project without `"type": "module"` is CommonJS to node, and keel an ES module it
// cannot require in a cycle: node's message says so in its own terms only.
function moduleTypeHint(error: unknown, path: string): string {
  const code = (error as { code?: unknown } | null)?.code;
  const message = error instanceof Error ? error.message : '';
  if (!/\.[cm]?tsx?$|\.js$/.test(path) || path.endsWith('.mts') || path.endsWith('.mjs')) return '';
  if (code !== 'ERR_REQUIRE_ASYNC_MODULE' && code !== 'ERR_REQUIRE_CYCLE_MODULE' && code !== 'ERR_REQUIRE_ESM' && !/require\(\) ES Module|Cannot require\(\)/.test(message)) return '';
  return ' (keel is an ES module: add "type": "module" to the package.json of the application, or name it .mts)';
}
