import Negotiator from 'negotiator';
import { memoizeBounded } from '../../internal/bounded-map.js';
import { splitOutsideQuotes } from '../../internal/split-outside-quotes.js';

export type ErrorFormat = 'html' | 'json' | 'xml' | 'csv' | 'yaml' | 'yml';

// The formats Symfony's serializer encodes (JsonEncoder, XmlEncoder, CsvEncoder, YamlEncoder); any other
// (txt, jsonld, rss…) ends on the HTML page, as in its SerializerErrorRenderer.
const SERIALIZED = new Set<string>(['json', 'xml', 'csv', 'yaml', 'yml']);

// Symfony's Request::$formats, the MIME types that name a format; problem+json added because clients that
// speak RFC 7807 ask for it. csv and yaml have no MIME type there: only a route's `_format` names them.
// A Map: the types are the client's, and `constructor` or `__proto__` would find an object's own members.
const FORMAT_OF_MIME = new Map<string, string>(Object.entries({
  'text/html': 'html',
  'application/xhtml+xml': 'html',
  'text/plain': 'txt',
  'application/javascript': 'js',
  'application/x-javascript': 'js',
  'text/javascript': 'js',
  'text/css': 'css',
  'application/json': 'json',
  'application/x-json': 'json',
  'application/problem+json': 'json',
  'application/ld+json': 'jsonld',
  'text/xml': 'xml',
  'application/xml': 'xml',
  'application/x-xml': 'xml',
  'application/rdf+xml': 'rdf',
  'application/atom+xml': 'atom',
  'application/rss+xml': 'rss',
  'application/x-www-form-urlencoded': 'form',
  'multipart/form-data': 'form',
}));

/**
 * The format of an error response (Symfony's Request::getPreferredFormat): a forced format wins; otherwise
 * the Accept type with the highest quality that names a known format decides. Wildcards name no format,
 * so `*∕*`, a missing header or garbage give HTML.
 * @example negotiateErrorFormat('text/html;q=0.5, application/json') // 'json'
 */
export function negotiateErrorFormat(accept: string | undefined, forced?: string): ErrorFormat {
  const format = forced ?? preferredFormat(accept);
  return format !== undefined && SERIALIZED.has(format) ? (format as ErrorFormat) : 'html';
}

// Browsers and clients send the same few Accept headers over and over; the header is client data, so the
// memory is bounded: a full cache is emptied rather than grown.
const MAX_REMEMBERED = 256;
const preferred = memoizeBounded(MAX_REMEMBERED, negotiate);

function preferredFormat(accept: string | undefined): string | undefined {
  return accept === undefined ? undefined : preferred(accept);
}

function negotiate(accept: string): string | undefined {
  if (accept.trim() === '') return undefined;
  const items = lastOfEach(accept);
  let types: string[];
  try {
    types = new Negotiator({ headers: { accept: items.map((item) => withPhpQuality(item).join(';')).join(',') } }).mediaTypes();
  } catch {
    return undefined;
  }
  // Media types compare as written, as Symfony's format table does: `Application/JSON` names no format.
  for (const type of types) {
    const format = FORMAT_OF_MIME.get(type);
    if (format !== undefined) return format;
  }
  return refusedFormat(items);
}

/**
 * The header as Symfony's AcceptHeader reads it: one item per media type (compared as written), the last
 * one given, at its place, and of a parameter given twice (`;q=0.5;q=0.1`) its last value. negotiator
 * counts every item, so that `application/json, text/html;q=0.9, application/json;q=0.1` would prefer
 * JSON; the reference, HTML.
 */
function lastOfEach(accept: string): string[][] {
  const items = splitOutsideQuotes(accept, ',').map((item) => splitOutsideQuotes(item, ';'));
  return lastByKey(items, ([type = '']) => type.trim()).map(([type = '', ...parameters]) => [type, ...lastByKey(parameters, parameterName)]);
}

/**
 * The format Symfony finds among the items negotiator leaves out, those of quality 0, below 0 or not a
 * number (PHP reads `q=abc` as 0): the reference keeps them, last in its order, and takes the first that
 * names a format, so that `application/json;q=0` alone still gives JSON there. Only reached when no
 * other item names a format, so the items negotiator kept, which all come first, named none.
 */
function refusedFormat(items: readonly string[][]): string | undefined {
  const ranked = items.map(([type = '', ...parameters], index) => ({ type: type.trim(), quality: phpQuality(parameters), index }));
  ranked.sort((a, b) => b.quality - a.quality || a.index - b.index);
  for (const { type } of ranked) {
    const format = FORMAT_OF_MIME.get(type);
    if (format !== undefined) return format;
  }
  return undefined;
}

// The q parameter as the number the reference reads: negotiator takes an empty one (`q=`, `q=""`) for 1,
// PHP's cast for 0, and `application/json;q=, text/html;q=0.5` was JSON there, HTML here.
function withPhpQuality([type = '', ...parameters]: readonly string[]): string[] {
  return [type, ...parameters.map((parameter) => (parameterName(parameter) === 'q' ? `q=${phpQuality([parameter])}` : parameter))];
}

// PHP's (float) cast of the q parameter: its leading number, else 0; 1 without one.
function phpQuality(parameters: readonly string[]): number {
  const q = parameters.find((parameter) => parameterName(parameter) === 'q');
  if (q === undefined) return 1;
  const value = /^\s*[+-]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?/.exec(q.slice(q.indexOf('=') + 1).trim().replace(/^"|"$/g, ''));
  return value === null ? 0 : Number(value[0]);
}

// Of the values sharing a key, the last, in order. Two passes, not a look ahead from each value: the header
// is the client's, and a look ahead made a 13 kB one of 1 800 parameters cost a second.
function lastByKey<T>(values: readonly T[], keyOf: (value: T) => string): T[] {
  const keys = values.map(keyOf);
  const last = new Map<string, number>();
  keys.forEach((key, index) => last.set(key, index));
  return values.filter((_, index) => last.get(keys[index]!) === index);
}

function parameterName(parameter: string): string {
  return parameter.split('=', 1)[0]!.trim().toLowerCase();
}
