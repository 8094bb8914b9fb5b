import { isSecretName, MASK } from '../config/mask-secrets.js';
import { ownString } from './normalize-context.js';
import { isError } from '../internal/is-error.js';
// Monolog fills `{key}` for every key of the context, whatever its characters (PSR-3 only recommends
// `A-Za-z0-9_.`): a name is anything between braces.
const PLACEHOLDER = /\{([^{}]*)\}/g;

/**
 * Fills `{name}` placeholders from values, in one pass (a value that itself contains `{x}` is not filled
 * again), by Monolog's PsrLogMessageProcessor rules: the value as PHP would cast it to a string. With
 * `maskSecrets`, a secret-named placeholder (`{password}`) is filled with `******`, as the context key it
 * names is shown: for the profiler's and the debug page's copy of the record, never the log file's.
 * @example interpolate('Matched route "{route}".', { route: 'home' }) // 'Matched route "home".'
 */
export function interpolate(template: string, values: Record<string, unknown>, { maskSecrets = false } = {}): string {
  if (!template.includes('{')) return template;
  return template.replace(PLACEHOLDER, (whole, key: string) => {
    // Own keys only: `{constructor}` is no placeholder of an empty context.
    if (!Object.hasOwn(values, key)) return whole;
    const value = values[key];
    if (value === undefined) return whole;
    const text = placeholderText(value);
    // An empty secret stays empty, as maskSecrets() leaves it.
    return maskSecrets && text !== '' && isSecretName(key) ? MASK : text;
  });
}

function placeholderText(value: unknown): string {
  // PHP's string casts: null and false are empty, true is "1".
  if (value === null || value === false) return '';
  if (value === true) return '1';
  if (typeof value === 'number') return Number.isFinite(value) ? String(value) : Number.isNaN(value) ? 'NAN' : value > 0 ? 'INF' : '-INF';
  if (typeof value === 'string' || typeof value === 'bigint') return String(value);
  // Named as the record's context names it (see normalizeContext), never its source text, which
  // String() would give: a whole function body in a log line. Monolog writes a closure `[object Closure]`.
  if (typeof value === 'function') return `[function ${value.name || 'anonymous'}]`;
  // A date the way the processor formats one without a date format: `Y-m-d\TH:i:s.uP`, here in UTC.
  if (value instanceof Date) return Number.isNaN(value.getTime()) ? 'Invalid Date' : `${value.toISOString().slice(0, 23)}000+00:00`;
  if (isError(value)) return `[object ${value.constructor.name}]`;
  // A list or a plain object is a PHP array: `array` and its JSON. A cycle fails the encoding, which
  // Monolog writes as `null`.
  if (Array.isArray(value) || isPlainObject(value)) {
    try {
      return `array${JSON.stringify(value).replace(/\u2028/g, '\\u2028').replace(/\u2029/g, '\\u2029')}`;
    } catch {
      return 'arraynull';
    }
  }
  // An object with a string form of its own (a URL's href) is that string; any other is `[object Class]`.
  return ownString(value as object) ?? `[object ${(value as { constructor?: { name?: string } }).constructor?.name || 'Object'}]`;
}

function isPlainObject(value: unknown): boolean {
  if (typeof value !== 'object' || value === null) return false;
  const proto = Object.getPrototypeOf(value) as object | null;
  return proto === null || proto === Object.prototype;
}
