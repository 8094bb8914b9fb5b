import type { IncomingHttpHeaders } from 'node:http';

/**
 * A request's header lines as node receives them, in order: name, value, name, value… (node's
 * IncomingMessage is one). Resolving the origin needs two to five headers (Host and the trusted forwarded
 * ones), read from the lines; the record of every header is built only for whoever asks for it (for the
 * seed request's ten lines, in a loop: 1.55 µs for node's record and the reads, 0.44 µs for the lines).
 */
export interface HeaderLines {
  readonly rawHeaders: readonly string[];
}

// Headers whose repeats node drops (the first line wins): every other name is joined, with `; ` for
// Cookie and `, ` for the rest; Set-Cookie is a list. Read off node's IncomingMessage (_http_incoming).
const FIRST_LINE_WINS = new Set([
  'age',
  'authorization',
  'content-length',
  'content-type',
  'etag',
  'expires',
  'from',
  'host',
  'if-modified-since',
  'if-unmodified-since',
  'last-modified',
  'location',
  'max-forwards',
  'proxy-authorization',
  'referer',
  'retry-after',
  'server',
  'user-agent',
]);

// node lower-cases the names of its record, so no record from node has a `rawHeaders` entry, let alone an array.
export function isHeaderLines(headers: IncomingHttpHeaders | HeaderLines): headers is HeaderLines {
  return Array.isArray(headers.rawHeaders);
}

/** The record node's IncomingMessage builds from the same lines: lower-cased names, repeats as above. */
export function headersFromLines(lines: readonly string[]): IncomingHttpHeaders {
  const headers: IncomingHttpHeaders = {};
  for (let i = 0; i < lines.length; i += 2) {
    const name = lines[i]!.toLowerCase();
    const line = lines[i + 1]!;
    if (!Object.hasOwn(headers, name)) headers[name] = name === 'set-cookie' ? [line] : line;
    else if (name === 'set-cookie') (headers[name] as string[]).push(line);
    else {
      const separator = separatorOf(name);
      if (separator !== undefined) headers[name] += separator + line;
    }
  }
  return headers;
}

/**
 * A record built by hand (`{ Host: 'example.com' }`, in a test or an in-process request) keyed as node keys
 * its own: lower-case names, a name given twice in different cases joined by node's rules. A record that
 * is already so (node's own) is returned as it is.
 */
export function normalizeRecord(headers: IncomingHttpHeaders): IncomingHttpHeaders {
  const names = Object.keys(headers);
  if (names.every((name) => name === name.toLowerCase())) return headers;
  const lines: string[] = [];
  for (const name of names) {
    const value = headers[name];
    for (const line of Array.isArray(value) ? value : [value]) if (line !== undefined) lines.push(name, line);
  }
  return headersFromLines(lines);
}

/**
 * One header from the lines, as node's record gives it (the first value of Set-Cookie's list):
 * `name` is lower case.
 */
export function headerFromLines(lines: readonly string[], name: string): string | undefined {
  let value: string | undefined;
  let separator: string | undefined;
  for (let i = 0; i < lines.length; i += 2) {
    const field = lines[i]!;
    // Most names differ in length, and most senders write them in lower case or as node's known fields.
    if (field.length !== name.length || (field !== name && field.toLowerCase() !== name)) continue;
    const line = lines[i + 1]!;
    if (value !== undefined) {
      value += separator + line;
      continue;
    }
    value = line;
    // Only the first value is wanted of Set-Cookie's list.
    separator = name === 'set-cookie' ? undefined : separatorOf(name);
    if (separator === undefined) return value;
  }
  return value;
}

/** What node puts between the values of a repeated header, undefined when it keeps the first line only. */
function separatorOf(name: string): string | undefined {
  if (FIRST_LINE_WINS.has(name)) return undefined;
  return name === 'cookie' ? '; ' : ', ';
}

/**
 * A fixed set of lower-case header names, grouped by length so that a header line of another length is
 * passed over after one comparison: what reading several headers in one pass over the lines needs.
 */
export class HeaderNameSet {
  readonly names: readonly string[];
  // Indexes into `names`, by name length.
  readonly #byLength: (number[] | undefined)[] = [];

  constructor(names: readonly string[]) {
    this.names = [...new Set(names.map((name) => name.toLowerCase()))];
    this.names.forEach((name, index) => (this.#byLength[name.length] ??= []).push(index));
  }

  /** The index in `names` of a field name in any case, -1 when it is not one of them. */
  indexOf(field: string): number {
    const candidates = this.#byLength[field.length];
    if (candidates === undefined) return -1;
    for (let i = 0; i < candidates.length; i++) if (field === this.names[candidates[i]!]) return candidates[i]!;
    // Lower-cased only when the first letter could be one of theirs: most lines of another header stop here.
    const first = field.charCodeAt(0) | 0x20;
    let lower: string | undefined;
    for (let i = 0; i < candidates.length; i++) {
      const name = this.names[candidates[i]!]!;
      if ((name.charCodeAt(0) | 0x20) !== first) continue;
      if ((lower ??= field.toLowerCase()) === name) return candidates[i]!;
    }
    return -1;
  }
}

/** The lines of these headers, in order, as `[name, value, name, value…]` with the names as `names` spells them. */
export function selectLines(lines: readonly string[], names: HeaderNameSet): string[] {
  const selected: string[] = [];
  for (let i = 0; i < lines.length; i += 2) {
    const index = names.indexOf(lines[i]!);
    if (index !== -1) selected.push(names.names[index]!, lines[i + 1]!);
  }
  return selected;
}

/** Whether selectLines(lines, names) equals `selected`, found without building it. */
export function sameSelectedLines(lines: readonly string[], names: HeaderNameSet, selected: readonly string[]): boolean {
  let j = 0;
  for (let i = 0; i < lines.length; i += 2) {
    const index = names.indexOf(lines[i]!);
    if (index === -1) continue;
    if (selected[j] !== names.names[index] || selected[j + 1] !== lines[i + 1]) return false;
    j += 2;
  }
  return j === selected.length;
}

/** selectLines() for a header record: its values in the order of `names`. */
export function selectRecord(headers: IncomingHttpHeaders, names: HeaderNameSet): string[] {
  const selected: string[] = [];
  for (const name of names.names) {
    const field = headers[name];
    for (const value of field === undefined ? [] : Array.isArray(field) ? field : [field]) selected.push(name, value);
  }
  return selected;
}
