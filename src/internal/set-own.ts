/**
 * Sets `key` as an own, enumerable property, as JSON.parse does. Plain assignment of `__proto__` sets the
 * object's prototype instead: a copy of parsed data (a masked JSON body, a log context) would lose that
 * member from what it shows, and take the client's value as its prototype.
 * @example setOwn(out, '__proto__', { a: 1 }); // JSON.stringify(out) === '{"__proto__":{"a":1}}'
 */
export function setOwn(target: Record<string, unknown>, key: string, value: unknown): void {
  if (key === '__proto__') Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
  else target[key] = value;
}
