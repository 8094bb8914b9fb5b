import { isNumericString } from '../internal/php-numeric.js';
import { rawurldecodeBytes } from '../internal/rawurldecode-bytes.js';
import { rawurlencode } from '../internal/rawurlencode.js';

/**
 * Symfony's Request::normalizeQueryString(), which its getUri() applies: the query parsed as PHP's
 * parse_str() reads it (`+` is a space, `a[]` and `a[b]` build arrays, a repeated name keeps its last
 * value), its top-level names sorted as PHP's ksort() sorts them, and written back by http_build_query()
 * with RFC 3986 encoding. The log line of a matched route and the profiler show URLs in this form.
 * Works on bytes (one character per byte), as PHP does, so any percent-encoded byte comes back as it was.
 * @example normalizeQueryString('b=2&a=1&c=%7e&d=a+b&e') // 'a=1&b=2&c=~&d=a%20b&e='
 */
export function normalizeQueryString(query: string): string {
  if (query === '') return '';
  const top = new PhpArray();
  for (const pair of query.split('&')) addPair(top, pair);
  top.sortKeys();
  const out: string[] = [];
  build(top, undefined, out);
  return out.join('&');
}

type Key = number | string;

// PHP's max_input_nesting_level, by default.
const MAX_NESTING = 64;
type Value = string | PhpArray;

/** An ordered PHP array: integer-like string keys become integers, appending takes the next integer. */
class PhpArray {
  readonly entries = new Map<Key, Value>();
  #next = 0;

  set(key: string | undefined, value: Value): void {
    const at = key === undefined ? this.#next : phpKey(key);
    if (typeof at === 'number' && at >= this.#next) this.#next = at + 1;
    this.entries.set(at, value);
  }

  /** The array under `key` (`undefined`: appended), created, or replacing a scalar, as parse_str does. */
  child(key: string | undefined): PhpArray {
    const existing = key === undefined ? undefined : this.entries.get(phpKey(key));
    if (existing instanceof PhpArray) return existing;
    const created = new PhpArray();
    this.set(key, created);
    return created;
  }

  // ksort(): stable, with PHP 8's comparison of keys.
  sortKeys(): void {
    const sorted = [...this.entries].sort(([a], [b]) => compareKeys(a, b));
    this.entries.clear();
    for (const [key, value] of sorted) this.entries.set(key, value);
  }
}

function addPair(top: PhpArray, pair: string): void {
  const eq = pair.indexOf('=');
  const name = cutAtNul(urldecode(eq === -1 ? pair : pair.slice(0, eq))).replace(/^ +/, '');
  const value = eq === -1 ? '' : urldecode(pair.slice(eq + 1));
  const bracket = name.indexOf('[');
  const base = bracket === -1 ? name : name.slice(0, bracket);
  if (base === '') return;
  if (bracket === -1) return top.set(name, value);
  const indices: string[] = [];
  let rest = name.slice(bracket);
  while (rest.startsWith('[')) {
    const close = rest.indexOf(']');
    if (close === -1) break;
    // PHP takes an index of one whitespace character for none (`a[ ]` appends, as `a[]` does).
    const index = rest.slice(1, close);
    indices.push(/^[ \t\r\n]$/.test(index) ? '' : index);
    rest = rest.slice(close + 1);
  }
  // An unclosed first bracket is no array: the name is kept, what follows the bracket with PHP's
  // replacement of the characters a variable name cannot hold (`a[b.c` is `a[b_c`).
  if (indices.length === 0) return top.set(`${base}[${name.slice(bracket + 1).replace(/[ .[]/g, '_')}`, value);
  // Deeper than PHP's max_input_nesting_level, the whole variable goes, what was set under its name before
  // included: as PHP drops it (and thousands of `[]` would otherwise overflow the stack of build()).
  if (indices.length > MAX_NESTING) {
    top.entries.delete(phpKey(base));
    return;
  }
  let level = top.child(base);
  for (let i = 0; i < indices.length - 1; i++) level = level.child(indices[i] === '' ? undefined : indices[i]);
  const last = indices.at(-1)!;
  level.set(last === '' ? undefined : last, value);
}

function build(array: PhpArray, prefix: string | undefined, out: string[]): void {
  for (const [key, value] of array.entries) {
    const name = prefix === undefined ? rawurlencodeBytes(String(key)) : `${prefix}%5B${rawurlencodeBytes(String(key))}%5D`;
    if (value instanceof PhpArray) build(value, name, out);
    else out.push(`${name}=${rawurlencodeBytes(value)}`);
  }
}

const CANONICAL_INT = /^(?:0|-?[1-9]\d*)$/;

function phpKey(key: string): Key {
  if (!CANONICAL_INT.test(key)) return key;
  const number = Number(key);
  return Number.isSafeInteger(number) ? number : key;
}

// PHP 8: numbers and numeric strings compare as numbers, anything else as byte strings.
function compareKeys(a: Key, b: Key): number {
  const x = typeof a === 'number' ? a : isNumericString(a) ? Number(a) : undefined;
  const y = typeof b === 'number' ? b : isNumericString(b) ? Number(b) : undefined;
  if (x !== undefined && y !== undefined) return x - y;
  const s = String(a);
  const t = String(b);
  return s < t ? -1 : s > t ? 1 : 0;
}

function cutAtNul(text: string): string {
  const nul = text.indexOf('\0');
  return nul === -1 ? text : text.slice(0, nul);
}

// PHP's urldecode(), to one character per byte: `+` is a space, `%XX` a byte, anything else as it is.
export function urldecode(text: string): string {
  return rawurldecodeBytes(text.replaceAll('+', ' '));
}

// PHP's rawurlencode() of a byte string (one character per byte): all but A-Z a-z 0-9 - _ . ~ as %XX. A
// string with characters above 0xff (not from bytes: built in code) goes as its UTF-8, as rawurlencode does.
function rawurlencodeBytes(text: string): string {
  if (BEYOND_BYTES.test(text)) return rawurlencode(text);
  return text.replace(RESERVED, (byte) => `%${byte.charCodeAt(0).toString(16).toUpperCase().padStart(2, '0')}`);
}

const BEYOND_BYTES = /[\u0100-\uffff]/;
const RESERVED = /[^A-Za-z0-9\-_.~]/g;
