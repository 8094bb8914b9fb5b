/**
 * Response headers in insertion order, matched case-insensitively. Setting a header that is already
 * present keeps its position, the way Symfony's ResponseHeaderBag (a PHP array) does: the reference's
 * header order (X-Debug-Token before X-Debug-Token-Link before X-Previous-Debug-Token) follows from it.
 */
export class HeaderBag {
  #entries = new Map<string, { name: string; values: string[] }>();

  constructor(init?: Iterable<readonly [string, string]> | Record<string, string | string[]>) {
    if (init === undefined) return;
    const pairs = Symbol.iterator in init ? (init as Iterable<readonly [string, string]>) : Object.entries(init);
    for (const [name, value] of pairs) this.set(name, value);
  }

  get(name: string): string | undefined {
    return this.#entries.get(name.toLowerCase())?.values[0];
  }

  all(name: string): string[] {
    return this.#entries.get(name.toLowerCase())?.values ?? [];
  }

  has(name: string): boolean {
    return this.#entries.has(name.toLowerCase());
  }

  set(name: string, value: string | number | readonly string[]): void {
    const values = Array.isArray(value) ? [...(value as readonly string[])] : [String(value)];
    const key = name.toLowerCase();
    const existing = this.#entries.get(key);
    if (existing === undefined) this.#entries.set(key, { name, values });
    else existing.values = values;
  }

  append(name: string, value: string): void {
    const existing = this.#entries.get(name.toLowerCase());
    if (existing === undefined) this.set(name, value);
    else existing.values.push(value);
  }

  delete(name: string): boolean {
    return this.#entries.delete(name.toLowerCase());
  }

  get size(): number {
    return this.#entries.size;
  }

  /** Every header line in order; a header with several values yields one pair per value. */
  *[Symbol.iterator](): IterableIterator<[string, string]> {
    for (const { name, values } of this.#entries.values()) {
      for (const value of values) yield [name, value];
    }
  }

  /**
   * Every header line in order as one flat list (`[name, value, name, value, …]`), the form node's
   * writeHead() takes; unlike the iterator, no generator and no pair per line (it runs for every response).
   */
  flatLines(): string[] {
    const out: string[] = [];
    for (const { name, values } of this.#entries.values()) {
      for (let i = 0; i < values.length; i++) out.push(name, values[i]!);
    }
    return out;
  }

  /** `{ name: value | values }` with the names as they were first set, for logs and the profiler. */
  toObject(): Record<string, string | string[]> {
    const out: Record<string, string | string[]> = {};
    for (const { name, values } of this.#entries.values()) out[name] = values.length === 1 ? values[0]! : [...values];
    return out;
  }
}
