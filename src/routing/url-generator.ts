import type { PatternToken } from './route-compiler.js';
import type { Route } from './route.js';
import { withoutLookarounds } from './requirement-safety.js';
import { UrlGenerationError } from './routing-errors.js';
import { looseEquals } from '../internal/php-numeric.js';
import { rawurlencode } from '../internal/rawurlencode.js';
import { unicodeClasses } from './unicode-classes.js';

/**
 * A parameter's value. `null` or `undefined` (an optional property left unset) is PHP's null: a placeholder
 * takes its default, and a query parameter or fragment is left out.
 */
export type UrlParams = Record<string, string | number | boolean | null | undefined>;

export interface GenerateOptions {
  /** Build an absolute URL on this request's scheme and host (a Request fits; `origin.prefix` is honoured). */
  absolute?: { schemeAndHttpHost: string; origin?: { prefix: string } };
  /**
   * Write the path behind this request's base path, the trusted `X-Forwarded-Prefix` (a Request fits), as
   * Symfony's generator writes it from its request context: a link of an application a proxy mounts under
   * `/app` then stays under `/app`.
   */
  request?: { origin: { prefix: string } };
}

/**
 * Characters rawurlencode() escapes that Symfony puts back in paths (UrlGenerator::$decodedChars); a `%2F`
 * given in a value stays `%2F` instead of becoming `%252F`.
 */
const PATH_DECODED: Record<string, string> = { '%2F': '/', '%252F': '%2F', '%40': '@', '%3A': ':', '%3B': ';', '%2C': ',', '%3D': '=', '%2B': '+', '%21': '!', '%2A': '*', '%7C': '|' };
const QUERY_DECODED: Record<string, string> = { '%2F': '/', '%3F': '?', '%40': '@', '%3A': ':', '%21': '!', '%3B': ';', '%2C': ',', '%2A': '*' };

/**
 * Builds URLs from route names (Symfony's UrlGenerator): placeholders filled and checked against their
 * requirements, trailing optional placeholders left out when they equal their default, values
 * percent-encoded, anything else appended as the query string.
 * @example generator.generate('item_edit', { id: 12, tab: 'history' }) // '/items/12?tab=history'
 */
export class UrlGenerator {
  #routes = new Map<string, Route>();

  constructor(routes: Iterable<Route>) {
    for (const route of routes) this.#routes.set(route.name, route);
  }

  generate(name: string, params: UrlParams = {}, { absolute, request }: GenerateOptions = {}): string {
    const route = this.#routes.get(name);
    if (route === undefined) throw new UrlGenerationError(`Unable to generate a URL for the named route "${name}" as such route does not exist.`);
    // Without a prototype: a placeholder named `constructor` or `valueOf` left unset is missing, not Object's.
    const values: Record<string, string | null> = Object.assign(Object.create(null) as Record<string, string | null>, route.defaults);
    // As PHP writes a value into a string: true is 1, false nothing (the query's http_build_query: 1 and 0).
    // A null replaces the default, as array_replace() does, and counts as given (the reference then
    // refuses it for a placeholder that cannot be left out): String() made it the text "undefined".
    for (const [key, value] of Object.entries(params)) values[key] = value === undefined || value === null ? null : typeof value === 'boolean' ? (value ? '1' : '') : String(value);
    const variables = [...(route.hostPattern?.variables ?? []), ...route.pathPattern.variables];
    const missing = variables.filter((v) => values[v] === undefined && !route.hasDefault(v));
    if (missing.length > 0) {
      throw new UrlGenerationError(`Some mandatory parameters are missing ("${missing.join('", "')}") to generate a URL for route "${name}".`);
    }

    let url = encodePath(buildPath(route, route.pathPattern.tokens, values, false));
    const fragment = values['_fragment'] ?? route.defaults['_fragment'];
    const query = Object.entries(params)
      // A parameter equal to its default is left out, equal as PHP's == says (`01` is the default `1`; true
      // is any default but '' and '0'); a null too, as http_build_query() leaves it out.
      .filter((entry): entry is [string, string | number | boolean] => isQueryParameter(entry[0], entry[1], variables, route.defaults))
      .map(([key, value]) => `${rawurlencode(key)}=${rawurlencode(typeof value === 'boolean' ? (value ? '1' : '0') : String(value))}`)
      .join('&');
    if (query !== '') url += `?${replaceAll(query, QUERY_DECODED)}`;
    if (fragment !== undefined && fragment !== '') url += `#${replaceAll(rawurlencode(fragment), QUERY_DECODED)}`;
    // Host placeholders are checked even for a path, as the reference checks them whatever it writes.
    const host = route.hostPattern === undefined ? undefined : buildPath(route, route.hostPattern.tokens, values, true);
    if (absolute === undefined) return (request?.origin.prefix ?? '') + url;

    const base = new URL(absolute.schemeAndHttpHost);
    let scheme = base.protocol.slice(0, -1);
    let authority = base.host;
    if (route.schemes.length > 0 && !route.schemes.includes(scheme)) {
      scheme = route.schemes[0] as string;
      authority = base.hostname;
    }
    if (host !== undefined) {
      authority = base.port !== '' && scheme === base.protocol.slice(0, -1) ? `${host}:${base.port}` : host;
    }
    return `${scheme}://${authority}${absolute.origin?.prefix ?? ''}${url}`;
  }
}

/**
 * Walks the tokens from the end, dropping a path's trailing optional placeholders that equal their default.
 * A host's values are checked whatever their case, as hosts are matched.
 */
function buildPath(route: Route, tokens: readonly PatternToken[], values: Record<string, string | null>, isHost: boolean): string {
  let out = '';
  let optional = !isHost;
  for (let i = tokens.length - 1; i >= 0; i--) {
    const token = tokens[i] as PatternToken;
    if (token.kind === 'text') {
      out = token.text + out;
      optional = false;
      continue;
    }
    const value = values[token.name];
    const isDefault = route.hasDefault(token.name) && (value === undefined || value === null || value === (Object.hasOwn(route.defaults, token.name) ? route.defaults[token.name] : ''));
    if (optional && !token.important && isDefault) continue;
    // Case-sensitive for a path, as the path is matched. Symfony's generator ignores case there too (`#i`),
    // and so writes URLs its own matcher then refuses (`/code/ABC` for `[a-z]+`): keel refuses to generate them.
    if (!valueCheck(token, isHost).test(value ?? '')) {
      throw new UrlGenerationError(
        `Parameter "${token.name}" for route "${route.name}" must match "${token.shown}" ("${value ?? ''}" given) to generate a corresponding URL.`,
      );
    }
    out = token.prefix + (value ?? '') + out;
    optional = false;
  }
  return out;
}

type VariableToken = Extract<PatternToken, { kind: 'variable' }>;

// A route's tokens live as long as the route: each one's check is compiled once, not on every generate().
const valueChecks = new WeakMap<VariableToken, RegExp>();

/** The regex a value must match whole: the requirement without lookarounds, case-insensitive for a host. */
function valueCheck(token: VariableToken, isHost: boolean): RegExp {
  let check = valueChecks.get(token);
  if (check === undefined) valueChecks.set(token, (check = new RegExp(`^(?:${unicodeClasses(withoutLookarounds(token.regex))})$`, isHost ? 'iu' : 'u')));
  return check;
}

/**
 * Percent-encodes a path, keeping `/` and the sub-delimiters Symfony keeps, and escaping `.` and `..`
 * segments so a browser does not resolve them away (RFC 3986 §5.2.4).
 */
function encodePath(path: string): string {
  let url = replaceAll(rawurlencode(path === '' ? '/' : path), PATH_DECODED);
  // Segment by segment, as the reference does: replacing `/../` in the text missed the second of two in a
  // row (`/../../etc` came out as `/%2E%2E/../etc`, which a browser resolves).
  if (url.includes('/.')) url = url.split('/').map((segment) => (segment === '.' ? '%2E' : segment === '..' ? '%2E%2E' : segment)).join('/');
  // A path starting with `//` would be read as a scheme-relative URL.
  if (url.startsWith('//')) url = `/%2F${url.slice(2)}`;
  return url;
}

function isQueryParameter(key: string, value: UrlParams[string], variables: readonly string[], defaults: Readonly<Record<string, string>>): boolean {
  if (key === '_fragment' || value === undefined || value === null || variables.includes(key)) return false;
  return !(Object.hasOwn(defaults, key) && equalsDefault(value, defaults[key]!));
}

// PHP's == between a given parameter and a default (a string): a boolean compares with the default read as
// a boolean (`''` and `'0'` are false), anything else as a string.
function equalsDefault(value: unknown, fallback: string): boolean {
  if (typeof value === 'boolean') return value === (fallback !== '' && fallback !== '0');
  return looseEquals(String(value), fallback);
}

function replaceAll(text: string, map: Record<string, string>): string {
  return text.replace(/%252F|%[0-9A-F]{2}/g, (escape) => map[escape] ?? escape);
}
