/**
 * The few most recently used entries, keyed by identity, held strongly and evicted least recently used
 * first: for values derived from per-request objects (an error and its flattened form, a record's
 * part and its JSON) that the same request asks for again a moment later.
 *
 * Not a WeakMap, on purpose. V8 (Node 20) lets a young key's WeakMap entry outlive the key through
 * scavenges: the key and its value are copied and then promoted to the old generation, where only a
 * full collection frees them. Keyed by per-request objects, a WeakMap promoted every request's entries:
 * with the profiler on, ~0.5 MB per scavenge and three times the scavenge time of a plain run. A small
 * bounded Map lets them die young, and a miss costs only a recomputation.
 * @example
 * const flats = new RecentCache<object, FlatError>(16);
 * const flat = flats.get(error) ?? flats.set(error, flatten(error));
 */
export class RecentCache<K, V> {
  readonly capacity: number;
  #entries = new Map<K, V>();

  constructor(capacity: number) {
    if (!Number.isInteger(capacity) || capacity < 1) throw new RangeError(`A RecentCache holds at least one entry, not ${capacity}.`);
    this.capacity = capacity;
  }

  get size(): number {
    return this.#entries.size;
  }

  /** The value, which becomes the most recently used entry; undefined when absent. */
  get(key: K): V | undefined {
    const value = this.#entries.get(key);
    // A Map iterates in insertion order: moving a hit to the end keeps the first key the least recently used.
    if (value !== undefined && this.#entries.size > 1) {
      this.#entries.delete(key);
      this.#entries.set(key, value);
    }
    return value;
  }

  /** Stores the value as the most recently used entry, evicting the least recently used beyond capacity; returns it. */
  set(key: K, value: V): V {
    this.#entries.delete(key);
    this.#entries.set(key, value);
    if (this.#entries.size > this.capacity) this.#entries.delete(this.#entries.keys().next().value as K);
    return value;
  }
}
