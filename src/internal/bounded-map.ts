/**
 * A Map that starts over rather than grow past `limit` entries: the caches keyed by what clients send
 * (addresses, Accept headers, origins) or by what code paths produce (stacks) must stay bounded, and the
 * same few keys come back at once after a reset.
 * @example const memo = new BoundedMap<string, number>(1024);
 */
export class BoundedMap<K, V> extends Map<K, V> {
  readonly #limit: number;

  constructor(limit: number) {
    super();
    this.#limit = limit;
  }

  override set(key: K, value: V): this {
    if (this.size >= this.#limit && !this.has(key)) this.clear();
    return super.set(key, value);
  }
}
