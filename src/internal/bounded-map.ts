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

/**
 * `compute` remembered per key in a BoundedMap of `limit` entries (an undefined result is remembered too).
 * @example const isTrusted = memoizeBounded(1024, (address: string) => parse(address) !== undefined);
 */
export function memoizeBounded<K, V>(limit: number, compute: (key: K) => V): (key: K) => V {
  const cache = new BoundedMap<K, V>(limit);
  // The key of the last call, checked first: the same client sends the same Accept header on every request,
  // each time a new string, which a map lookup must hash first; comparing it with the last costs less.
  let lastKey: K | undefined;
  let lastValue: V | undefined;
  let hasLast = false;
  return (key) => {
    if (hasLast && key === lastKey) return lastValue as V;
    let value = cache.get(key);
    if (value === undefined && !cache.has(key)) {
      value = compute(key);
      cache.set(key, value);
    }
    lastKey = key;
    lastValue = value;
    hasLast = true;
    return value as V;
  };
}
