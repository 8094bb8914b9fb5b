import { setOwn } from '../internal/set-own.js';

/**
 * Response headers in insertion order, matched case-insensitively. Setting a header that is already
 * present keeps its position, the way Symfony's ResponseHeaderBag (a PHP array) does: the reference's
 * header order (X-Debug-Token before X-Debug-Token-Link before X-Previous-Debug-Token) follows from it.
 *
 * Three parallel lists, searched from the start: a response has a handful of headers, which a Map of
 * entries made every response pay for in allocations (the map's table, an entry and a list per header).
 */
export class HeaderBag {
  // Lower-case names, the names as first set, and each header's value or values.
  #keys: string[] = [];
  #names: string[] = [];
  #values: (string | string[])[] = [];

  constructor(init?: Iterable<readonly [string, string]> | Record<string, string | string[]>) {
    if (init === undefined) return;
    const pairs = Symbol.iterator in init ? (init as Iterable<readonly [string, string]>) : Object.entries(init);
    for (const [name, value] of pairs) this.set(name, value);
  }

  get(name: string): string | undefined {
    const value = this.#values[this.#indexOf(name)];
    return typeof value === 'string' ? value : value?.[0];
  }

  all(name: string): string[] {
    const value = this.#values[this.#indexOf(name)];
    return value === undefined ? [] : typeof value === 'string' ? [value] : value;
  }

  has(name: string): boolean {
    return this.#indexOf(name) !== -1;
  }

  set(name: string, value: string | number | readonly string[]): void {
    const values = Array.isArray(value) ? [...(value as readonly string[])] : String(value);
    const index = this.#indexOf(name);
    if (index !== -1) {
      this.#values[index] = values;
      return;
    }
    checkHeaderName(name);
    this.#keys.push(name.toLowerCase());
    this.#names.push(name);
    this.#values.push(values);
  }

  /**
   * Sets a header that is not there yet just before `before` (at the end when `before` is absent either):
   * a listener's headers can stand where a controller building the response with them would have put them.
   */
  insertBefore(before: string, name: string, value: string): void {
    const at = this.#indexOf(before);
    if (this.has(name) || at === -1) {
      this.set(name, value);
      return;
    }
    checkHeaderName(name);
    this.#keys.splice(at, 0, name.toLowerCase());
    this.#names.splice(at, 0, name);
    this.#values.splice(at, 0, value);
  }

  append(name: string, value: string): void {
    const index = this.#indexOf(name);
    const values = this.#values[index];
    if (values === undefined) this.set(name, value);
    else if (typeof values === 'string') this.#values[index] = [values, value];
    else values.push(value);
  }

  delete(name: string): boolean {
    const index = this.#indexOf(name);
    if (index === -1) return false;
    this.#keys.splice(index, 1);
    this.#names.splice(index, 1);
    this.#values.splice(index, 1);
    return true;
  }

  get size(): number {
    return this.#keys.length;
  }

  /** Every header line in order; a header with several values yields one pair per value. */
  *[Symbol.iterator](): IterableIterator<[string, string]> {
    const lines = this.flatLines();
    for (let i = 0; i < lines.length; i += 2) yield [lines[i]!, lines[i + 1]!];
  }

  /**
   * Every header line in order as one flat list (`[name, value, name, value, …]`), the form node's
   * writeHead() takes; unlike the iterator, no generator and no pair per line (it runs for every response).
   */
  flatLines(): string[] {
    const out: string[] = [];
    for (let i = 0; i < this.#names.length; i++) {
      const name = this.#names[i]!;
      const value = this.#values[i]!;
      if (typeof value === 'string') out.push(name, value);
      else for (let j = 0; j < value.length; j++) out.push(name, value[j]!);
    }
    return out;
  }

  /** `{ name: value | values }` with the names as they were first set, for logs and the profiler. */
  toObject(): Record<string, string | string[]> {
    const out: Record<string, string | string[]> = {};
    for (let i = 0; i < this.#names.length; i++) {
      const value = this.#values[i]!;
      setOwn(out, this.#names[i]!, typeof value === 'string' ? value : value.length === 1 ? value[0]! : [...value]);
    }
    return out;
  }

  #indexOf(name: string): number {
    return this.#keys.indexOf(name.toLowerCase());
  }
}

// RFC 9110 §5.1: a field name is a token.
const TOKEN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;
// Names found valid lately: responses set the same few, and this runs for each new one.
const VALID_NAMES_LIMIT = 256;
const validNames = new Set<string>();

/**
 * Refuses a name node would refuse when writing the response: there, past the controller and every listener,
 * it could only end in a bare 500; here it is the controller's error, with its debug page and its line.
 */
export function checkHeaderName(name: string): void {
  if (validNames.has(name)) return;
  if (!TOKEN.test(name)) throw new TypeError(`Invalid header name ${JSON.stringify(name)}: a header name is a token (letters, digits and !#$%&'*+-.^_\`|~), RFC 9110 §5.1.`);
  if (validNames.size >= VALID_NAMES_LIMIT) validNames.clear();
  validNames.add(name);
}
