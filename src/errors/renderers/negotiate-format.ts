import Negotiator from 'negotiator';
import { memoizeBounded } from '../../internal/bounded-map.js';
import { splitOutsideQuotes } from '../../internal/split-outside-quotes.js';

export type ErrorFormat = 'html' | 'json' | 'xml' | 'csv' | 'yaml' | 'yml';

// The formats Symfony's serializer encodes (JsonEncoder, XmlEncoder, CsvEncoder, YamlEncoder); any other
// (txt, jsonld, rss…) ends on the HTML page, as in its SerializerErrorRenderer.
const SERIALIZED = new Set<string>(['json', 'xml', 'csv', 'yaml', 'yml']);

// Symfony's Request::$formats, the MIME types that name a format; problem+json added because clients that
// speak RFC 7807 ask for it. csv and yaml have no MIME type there: only a route's `_format` names them.
const FORMAT_OF_MIME: Record<string, string> = {
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
};

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
  let types: string[];
  try {
    types = new Negotiator({ headers: { accept: lastOfEach(accept) } }).mediaTypes();
  } catch {
    return undefined;
  }
  for (const type of types) {
    const format = FORMAT_OF_MIME[type.toLowerCase()];
    if (format !== undefined) return format;
  }
  return undefined;
}

/**
 * The header as Symfony's AcceptHeader reads it: one item per media type, the last one given, at its place,
 * and of a parameter given twice (`;q=0.5;q=0.1`) its last value. negotiator counts every item, so that
 * `application/json, text/html;q=0.9, application/json;q=0.1` would prefer JSON; the reference, HTML.
 */
function lastOfEach(accept: string): string {
  const items = splitOutsideQuotes(accept, ',').map((item) => splitOutsideQuotes(item, ';'));
  return lastByKey(items, ([type = '']) => type.toLowerCase())
    .map(([type = '', ...parameters]) => [type, ...lastByKey(parameters, parameterName)].join(';'))
    .join(',');
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
