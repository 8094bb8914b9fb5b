import type { Route } from '../routing/route.js';

/** A route as `keel debug:router` shows it (the fields of Symfony's route descriptors). */
export interface RouteDescription {
  name: string;
  path: string;
  pathRegex: string;
  host: string;
  hostRegex: string;
  /** Empty: any scheme. */
  schemes: string[];
  /** Empty: any method. */
  methods: string[];
  requirements: Record<string, string>;
  defaults: Record<string, string>;
  options: Record<string, unknown>;
  controller: string;
  stateless: boolean;
}

export function describeRoute(route: Route): RouteDescription {
  return {
    name: route.name,
    path: route.path,
    pathRegex: String(route.pathRegex),
    host: route.host,
    hostRegex: route.hostRegex === undefined ? '' : String(route.hostRegex),
    schemes: [...route.schemes],
    methods: [...route.methods],
    requirements: { ...route.requirements },
    defaults: { ...route.defaults },
    options: toJsonSafe(route.options) as Record<string, unknown>,
    controller: controllerName(route),
    stateless: route.stateless,
  };
}

/** One line of the route table: name, methods, schemes, host, path, requirements (and the controller). */
export function routeRow(route: RouteDescription, { controller = false }: { controller?: boolean } = {}): string[] {
  const row = [route.name, anyOr(route.methods), anyOr(route.schemes), route.host || 'ANY', route.path, formatRequirements(route.requirements)];
  return controller ? [...row, route.controller] : row;
}

/** Every field of one route, label and value, in Symfony's order. */
export function routeDetails(route: RouteDescription): [string, string][] {
  return [
    ['Route Name', route.name],
    ['Path', route.path],
    ['Path Regex', route.pathRegex],
    ['Host', route.host || 'ANY'],
    ['Host Regex', route.hostRegex],
    ['Scheme', anyOr(route.schemes)],
    ['Method', anyOr(route.methods)],
    ['Requirements', Object.keys(route.requirements).length === 0 ? 'NO CUSTOM' : formatRecord(route.requirements)],
    ['Defaults', Object.keys(route.defaults).length === 0 ? 'NONE' : formatRecord(route.defaults)],
    ['Options', Object.keys(route.options).length === 0 ? 'NONE' : formatRecord(route.options)],
    ['Controller', route.controller],
    ['Stateless', route.stateless ? 'yes' : 'no'],
  ];
}

function anyOr(values: readonly string[]): string {
  return values.length === 0 ? 'ANY' : values.join('|');
}

function formatRequirements(requirements: Record<string, string>): string {
  return Object.entries(requirements)
    .map(([name, regex]) => `${name}: ${regex}`)
    .join(', ');
}

function formatRecord(record: Record<string, unknown>): string {
  return Object.entries(record)
    .map(([name, value]) => `${name}: ${typeof value === 'string' ? value : JSON.stringify(value)}`)
    .join('\n');
}

/** The controller function's own name; an arrow function defined inline has none worth showing. */
function controllerName(route: Route): string {
  if (route.controller === undefined) return 'none';
  const { name } = route.controller;
  return name === '' || name === 'controller' ? 'anonymous function' : name;
}

/** Route options may hold anything: functions and cycles become text so that JSON output never throws. */
function toJsonSafe(value: unknown, seen = new WeakSet<object>()): unknown {
  if (typeof value === 'function') return `[function ${value.name || 'anonymous'}]`;
  if (typeof value === 'bigint' || typeof value === 'symbol') return String(value);
  if (value === null || typeof value !== 'object') return value;
  if (seen.has(value)) return '[circular]';
  seen.add(value);
  if (Array.isArray(value)) return value.map((item) => toJsonSafe(item, seen));
  return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, toJsonSafe(item, seen)]));
}
