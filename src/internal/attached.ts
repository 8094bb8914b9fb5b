/** The method by which an object offers room of its own for derived values (see HoldsDerivedValues). */
export const derivedValues = Symbol('keel.derivedValues');

/**
 * An object with room of its own for values derived from it (keel's HttpException): a record in a private
 * field, which no listing of the object shows, written like any object's property. Defining a
 * non-enumerable property on an error instead cost a production 404 a twelfth of keel's time.
 */
export interface HoldsDerivedValues {
  [derivedValues](): Record<symbol, unknown>;
}

/**
 * A value derived from an object, computed once and kept on the object itself under a private symbol
 * (non-enumerable: invisible to JSON, `Object.keys` and `util.inspect`), so that it lives exactly as long
 * as the object. For per-request objects (an error and its flattened form) this is what a cache must do:
 * a WeakMap or a Map holding them, even a one-entry one, made V8 (Node 20) promote each request's objects
 * to the old generation, measured at five times the young-generation collection time of a production
 * 404. An object that cannot take the property (frozen, sealed, a proxy that refuses it or whose reads throw) gets the value
 * computed anew on each call.
 * @example const flat = attached(error, FLAT, () => flatten(error));
 */
export function attached<T>(owner: object, key: symbol, compute: () => T): T {
  const room = roomOf(owner);
  if (room === UNREADABLE) return compute();
  if (room !== undefined) return (room[key] ??= compute()) as T;
  const held = readOwn<T>(owner, key);
  if (held === UNREADABLE) return compute();
  if (held !== undefined) return held;
  const value = compute();
  try {
    if (Object.isExtensible(owner) && !Object.hasOwn(owner, key)) Object.defineProperty(owner, key, { value, configurable: true });
  } catch {
    // A proxy's defineProperty trap may throw: the value is simply not kept.
  }
  return value;
}

// What a read of the owner gives when it throws: the owner may be any thrown value, a Proxy whose get trap
// throws included, and reporting it must not fail for that. Its value is then computed anew on each call.
const UNREADABLE = Symbol('keel.unreadable');

function roomOf(owner: object): Record<symbol, unknown> | undefined | typeof UNREADABLE {
  try {
    return typeof (owner as Partial<HoldsDerivedValues>)[derivedValues] === 'function' ? (owner as HoldsDerivedValues)[derivedValues]() : undefined;
  } catch {
    return UNREADABLE;
  }
}

function readOwn<T>(owner: object, key: symbol): T | undefined | typeof UNREADABLE {
  try {
    return (owner as Record<symbol, T | undefined>)[key];
  } catch {
    return UNREADABLE;
  }
}
