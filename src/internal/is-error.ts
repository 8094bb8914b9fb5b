/**
 * `value instanceof type` for a value thrown or logged, which may be anything: a Proxy whose
 * getPrototypeOf trap throws is no instance here, where `instanceof` would throw out of the code that was
 * reporting it (the error's log line, its page), losing it.
 */
export function isInstance<T>(value: unknown, type: abstract new (...args: never[]) => T): value is T {
  try {
    return value instanceof type;
  } catch {
    return false;
  }
}

/** isInstance(value, Error). */
export function isError(value: unknown): value is Error {
  return isInstance(value, Error);
}
