/**
 * A value derived from an object, computed once and kept on the object itself under a private symbol
 * (non-enumerable: invisible to JSON, `Object.keys` and `util.inspect`), so that it lives exactly as long
 * as the object. For per-request objects (an error and its flattened form) this is what a cache must do:
 * a WeakMap or a Map holding them, even a one-entry one, made V8 (Node 20) promote each request's objects
 * to the old generation, measured at five times the young-generation collection time of a production
 * 404. An object that cannot take the property (frozen, sealed, a proxy that refuses it) gets the value
 * computed anew on each call.
 * @example const flat = attached(error, FLAT, () => flatten(error));
 */
export function attached<T>(owner: object, key: symbol, compute: () => T): T {
  const held = (owner as Record<symbol, T | undefined>)[key];
  if (held !== undefined) return held;
  const value = compute();
  try {
    if (Object.isExtensible(owner) && !Object.hasOwn(owner, key)) Object.defineProperty(owner, key, { value, configurable: true });
  } catch {
    // A proxy's defineProperty trap may throw: the value is simply not kept.
  }
  return value;
}
