/**
 * `value instanceof Error` for a value thrown or logged, which may be anything: a Proxy whose
 * getPrototypeOf trap throws is no Error here, where `instanceof` would throw out of the code that was
 * reporting it (the error's log line, its page), losing it.
 */
export function isError(value: unknown): value is Error {
  try {
    return value instanceof Error;
  } catch {
    return false;
  }
}
