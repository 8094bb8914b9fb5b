import type { Controller } from '../http/request.js';
import { compilePattern, PatternError, PLACEHOLDER_NAME, type CompiledPattern } from './route-compiler.js';
import { paramsCollector, type ParamsCollector } from './params-collector.js';
import { RouteDefinitionError } from './routing-errors.js';
import { didYouMean } from '../internal/closest-name.js';
import { sanitizeRequirement } from './requirement-safety.js';
import { pcreOnlySyntax } from './pcre-only-syntax.js';
import { unicodeClasses } from './unicode-classes.js';
import { setOwn } from '../internal/set-own.js';

/**
 * A route as an application declares it.
 * @example
 * { name: 'item_edit', path: '/items/{id<\\d+>}', methods: ['PUT', 'PATCH'], controller: editItem }
 */
// The keys of a RouteDefinition, in the order the docs give them.
const ROUTE_KEYS: readonly string[] = ['name', 'path', 'controller', 'methods', 'requirements', 'defaults', 'host', 'schemes', 'stateless', 'options'];

export interface RouteDefinition {
  name: string;
  /** `/blog/{slug}`; inline requirement `{id<\d+>}`; inline default `{page?1}` (optional when trailing). */
  path: string;
  controller?: Controller;
  /** Empty or absent: any method. HEAD is accepted wherever GET is. */
  methods?: string[];
  requirements?: Record<string, string>;
  defaults?: Record<string, string>;
  /** `api.example.com` or `{tenant}.example.com`, compared case-insensitively. */
  host?: string;
  schemes?: ('http' | 'https')[];
  stateless?: boolean;
  options?: RouteOptions;
}

/**
 * Free-form route options, as Symfony's. Components that read some declare them here (the rate limiter:
 * `limiters`, `limiterAccount`…), so that a mistyped value is a type error in the route table.
 */
export interface RouteOptions {
  [option: string]: unknown;
}

const INLINE = new RegExp(`\\{(!?)(${PLACEHOLDER_NAME})(<.*?>)?(\\?[^}]*)?\\}`, 'g');

/**
 * A route ready for matching: the definition normalised (methods upper-case, schemes lower-case, inline
 * requirements and defaults extracted) and its path and host patterns compiled.
 */
export class Route {
  readonly name: string;
  /** The path with inline requirements and defaults removed: `/items/{id}`. */
  readonly path: string;
  readonly controller: Controller | undefined;
  readonly methods: readonly string[];
  readonly schemes: readonly string[];
  readonly host: string;
  readonly requirements: Readonly<Record<string, string>>;
  /** Default values; a placeholder declared `{name?}` is optional but has no value here. */
  readonly defaults: Readonly<Record<string, string>>;
  readonly stateless: boolean;
  readonly options: Readonly<RouteOptions>;
  readonly definition: RouteDefinition;
  readonly pathPattern: CompiledPattern;
  readonly hostPattern: CompiledPattern | undefined;
  /** Regex for the path, its trailing slash made optional (the trailing-slash rule decides afterwards). */
  readonly pathRegex: RegExp;
  /** Copies what pathRegex captured into a match's params. */
  readonly collectPathParams: ParamsCollector;
  readonly hostRegex: RegExp | undefined;
  /** Route path ends with `/` (and is not `/`). */
  readonly hasTrailingSlash: boolean;
  /** Route path ends with a placeholder, which may swallow a trailing slash. */
  readonly hasTrailingVar: boolean;
  /** No path placeholder: matched by comparing `staticUrl` with the request path without trailing slashes. */
  readonly isStatic: boolean;
  readonly staticUrl: string;
  readonly #optional: ReadonlySet<string>;

  constructor(definition: RouteDefinition) {
    // A route table is often built by code (a loop, a spread): a hole in it is named, not a TypeError.
    if (typeof definition !== 'object' || definition === null) throw new RouteDefinitionError(String(definition), 'a route is an object with a name, a path and a controller.');
    const { name } = definition;
    if (typeof name !== 'string' || name === '') throw new RouteDefinitionError(String(name), 'a route needs a non-empty name.');
    if (typeof definition.path !== 'string') throw new RouteDefinitionError(name, 'the path must be a string.');
    // A table written without its type (plain JavaScript, a spread of loose objects) gets no compiler's
    // help: `method: ['GET']` would leave the route open to every method, `controler` leave it without one.
    for (const key of Object.keys(definition)) {
      if (!ROUTE_KEYS.includes(key)) throw new RouteDefinitionError(name, `unknown key "${key}"${didYouMean(key, ROUTE_KEYS)}; a route has ${ROUTE_KEYS.join(', ')}.`);
    }
    if (definition.controller !== undefined && typeof definition.controller !== 'function') {
      throw new RouteDefinitionError(name, `the controller must be a function (got ${typeof definition.controller === 'string' ? `the string ${JSON.stringify(definition.controller)}: keel has no controller names, a route holds the function itself` : typeof definition.controller}).`);
    }
    refuseForeignPlaceholders(name, definition.path);
    this.name = name;
    this.definition = definition;
    this.controller = definition.controller;
    this.methods = [...new Set(stringList(name, 'methods', definition.methods).map((m) => checkMethod(name, m.toUpperCase())))];
    this.schemes = [...new Set(stringList(name, 'schemes', definition.schemes).map((s) => checkScheme(name, s.toLowerCase())))];
    this.stateless = definition.stateless ?? false;
    this.options = definition.options ?? {};

    const requirements: Record<string, string> = {};
    const defaults: Record<string, string> = {};
    const optional = new Set<string>();
    // Inline requirements and defaults, in the host as in the path (Symfony's Route reads both).
    const withoutInline = (pattern: string) =>
      pattern.replace(INLINE, (_all, bang: string, key: string, req?: string, def?: string) => {
        if (def !== undefined) {
          optional.add(key);
          if (def !== '?') setOwn(defaults, key, def.slice(1));
        }
        // An empty one (`{id<>}`) too, which is then refused as Symfony's Route refuses it: dropped, it left
        // the placeholder open to anything.
        if (req !== undefined) setOwn(requirements, key, req.slice(1, -1));
        return `{${bang}${key}}`;
      });
    const path = withoutInline(`/${definition.path.trim().replace(/^\/+/, '')}`);
    for (const [key, value] of Object.entries(definition.defaults ?? {})) {
      setOwn(defaults, key, String(value));
      optional.add(key);
    }
    for (const [key, value] of Object.entries(definition.requirements ?? {})) {
      // Symfony's message; a table built by code may hold a number or a RegExp there.
      if (typeof value !== 'string') throw new RouteDefinitionError(name, `the routing requirement for "${key}" must be a string.`);
      setOwn(requirements, key, value);
    }
    // The host's inline parts last, as Symfony's Route reads its host after the defaults and requirements
    // given: there the inline ones win, where the path's lose to them.
    const host = withoutInline(definition.host ?? '');
    refuseUnmatchableHost(name, definition.host ?? '', host);
    for (const [key, value] of Object.entries(requirements)) {
      const regex = sanitizeRequirement(value);
      if (regex === '') throw new RouteDefinitionError(name, `the requirement of "${key}" cannot be empty.`);
      try {
        new RegExp(unicodeClasses(regex), 'su');
      } catch (error) {
        const pcre = pcreOnlySyntax(regex);
        if (pcre !== undefined) throw new RouteDefinitionError(name, `the requirement of "${key}" uses ${pcre.what}, PCRE syntax JavaScript's regular expressions lack: ${pcre.fix}.`);
        throw new RouteDefinitionError(name, `the requirement of "${key}" is not a valid regular expression (${(error as Error).message}).`);
      }
      setOwn(requirements, key, regex);
    }
    this.path = path;
    // Hosts match whatever their case: the literal text is lower-cased, placeholder names keep theirs.
    this.host = host.replace(/[^{}]+(?![^{]*\})/g, (literal) => literal.toLowerCase());
    this.requirements = requirements;
    this.defaults = defaults;
    this.#optional = optional;

    try {
      this.pathPattern = compilePattern(path, { isHost: false, requirements, hasDefault: (n) => optional.has(n) });
      this.hostPattern = this.host === '' ? undefined : compilePattern(this.host, { isHost: true, requirements, hasDefault: () => false });
    } catch (error) {
      if (error instanceof PatternError) throw new RouteDefinitionError(name, error.message);
      throw error;
    }
    if (this.pathPattern.variables.includes('_fragment')) throw new RouteDefinitionError(name, '"_fragment" cannot be a path placeholder.');
    this.hasTrailingSlash = path !== '/' && path.endsWith('/');
    // Placeholder names may hold any letter (`{café}`), as Symfony's dumper reads them ([\w\x80-\xFF]).
    this.hasTrailingVar = /\{[\w\u0080-\uffff]+\}\/?$/.test(path);
    this.isStatic = this.pathPattern.variables.length === 0;
    this.staticUrl = this.hasTrailingSlash ? path.slice(0, -1) : path;
    this.collectPathParams = paramsCollector(this.pathPattern.variables);
    this.pathRegex = compileRegex(name, pathRegexSource(path, this.pathPattern.source), 'su');
    this.hostRegex = this.hostPattern === undefined ? undefined : compileRegex(name, `^${this.hostPattern.source}$`, 'siu');
  }

  hasDefault(name: string): boolean {
    return this.#optional.has(name);
  }

  /** The path regex this route would have with other requirements: the trace uses it to name the one that failed. */
  pathRegexWith(requirements: Readonly<Record<string, string>>): RegExp {
    const pattern = compilePattern(this.path, { isHost: false, requirements, hasDefault: (n) => this.#optional.has(n) });
    return compileRegex(this.name, pathRegexSource(this.path, pattern.source), 'su');
  }
}

/** `^/blog/$` becomes `^/blog/?$` and `^/about$` becomes `^/about/?$`, as Symfony's compiled matcher does. */
function pathRegexSource(path: string, source: string): string {
  if (path === '/') return '^/$';
  return `^${source.endsWith('/') ? source.slice(0, -1) : source}/?$`;
}

function compileRegex(route: string, source: string, flags: string): RegExp {
  try {
    return new RegExp(unicodeClasses(source), flags);
  } catch (error) {
    throw new RouteDefinitionError(route, `a requirement does not compile as a regular expression (${(error as Error).message}).`);
  }
}

/** Compiles a route definition; throws a RouteDefinitionError (code KEEL_ERR_ROUTE_INVALID) when it is invalid. */
export function compileRoute(definition: RouteDefinition): Route {
  return new Route(definition);
}

// `/users/:id` (Express, Fastify, Hono) would be a literal path here, matched by no real URL: a route that
// silently answers 404 for everything. A whole segment spelt that way is refused with the spelling keel reads.
const COLON_SEGMENT = /(?<=^|\/):([A-Za-z_]\w*)(\??)(?=\/|$)/g;

// `/files/*` or `/files/*rest` (Express, Fastify, Hono): a wildcard there, a literal `*` here.
const STAR_SEGMENT = /(?<=\/)\*(\w*)$/;

function refuseForeignPlaceholders(name: string, path: string): void {
  const star = STAR_SEGMENT.exec(path);
  if (star !== null) {
    const fixed = `${path.slice(0, star.index)}{${star[1] || 'path'}<.+>}`;
    throw new RouteDefinitionError(name, `the path "${path}" has a segment "${star[0]}", which would match only that literal text: a placeholder taking the rest of the path is written "${fixed}".`);
  }
  if (!path.includes(':')) return;
  const first = new RegExp(COLON_SEGMENT.source).exec(path);
  if (first === null) return;
  const fixed = path.replace(COLON_SEGMENT, (_all, key: string, optional: string) => `{${key}${optional}}`);
  throw new RouteDefinitionError(name, `the path "${path}" has a segment ":${first[1]!}", which would match only that literal text: placeholders are written in braces, "${fixed}".`);
}

// A request's host is a name alone: a route's host written as a URL (`https://api.example.com`), with a
// path or with a port (`api.example.com:8080`) was kept and matched no request, the route answering 404.
const HOST_SCHEME = /^[a-z][a-z0-9+.-]*:\/\//i;
const HOST_PORT = /:\d+$/;

function refuseUnmatchableHost(name: string, written: string, host: string): void {
  if (!HOST_SCHEME.test(host) && !host.includes('/') && !HOST_PORT.test(host)) return;
  const scheme = HOST_SCHEME.exec(written)?.[0].slice(0, -3);
  const fixed = written.replace(HOST_SCHEME, '').replace(/\/.*$/, '').replace(HOST_PORT, '');
  const hint = scheme === undefined ? '' : ` (with schemes: ['${scheme.toLowerCase()}'] for the scheme)`;
  throw new RouteDefinitionError(name, `the host "${written}" holds a scheme, a path or a port, which a request's host never has: write "${fixed}"${hint}.`);
}

// An HTTP method is a token (RFC 9110 §5.6.2). `GET|POST` or `GET, POST` is one method no request has: the
// route answered every request with a 405 whose Allow header read as if the request's method were listed.
const METHOD_TOKEN = /^[!#$%&'*+\-.^_`|~0-9A-Z]+$/;

function checkMethod(name: string, method: string): string {
  // What debug:router shows for a route without methods, and the usual wildcard: a route of methods ['ANY']
  // answered every request with a 405 `Allow: ANY`.
  if (method === 'ANY' || method === '*') throw new RouteDefinitionError(name, `the method "${method}" names no method a request has: leave methods out for a route that takes any.`);
  const listed = method.split(/[\s,|]+/).filter((part) => part !== '');
  if (METHOD_TOKEN.test(method) && listed.length === 1) return method;
  const hint = listed.length > 1 ? `; list each method apart: [${listed.map((part) => JSON.stringify(part)).join(', ')}]` : '';
  throw new RouteDefinitionError(name, `the method ${JSON.stringify(method)} is not an HTTP method name${hint}.`);
}

// A request comes in on http or https only: another scheme (`https:`, `ftp`) redirected every GET to a URL
// such as `https:://host/path`, and the route answered nothing else.
function checkScheme(name: string, scheme: string): string {
  if (scheme === 'http' || scheme === 'https') return scheme;
  throw new RouteDefinitionError(name, `the scheme ${JSON.stringify(scheme)} is neither http nor https, the schemes a request comes in on.`);
}

// `methods: 'GET'` is read as Symfony's Route reads one method given alone; anything but strings is named.
function stringList(name: string, field: 'methods' | 'schemes', value: unknown): string[] {
  const list: unknown[] = value === undefined ? [] : typeof value === 'string' ? [value] : Array.isArray(value) ? value : [value];
  if (list.some((item) => typeof item !== 'string')) throw new RouteDefinitionError(name, `${field} must be a string or a list of strings.`);
  return list as string[];
}
