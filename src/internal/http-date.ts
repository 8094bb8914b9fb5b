// The IMF-fixdate of RFC 9110 §5.6.7 ("Sun, 06 Nov 1994 08:49:37 GMT"), which is exactly what
// Date#toUTCString() prints. Formatting a date costs more than a whole routing lookup, so the current
// second's string is kept until the next second starts, as node:http keeps its own Date header: an
// unreferenced timer forgets it then, so a response does not even read the clock.
let current: string | undefined;

function forgetCurrent(): void {
  current = undefined;
}

/** The HTTP date of `nowMs`, or of now. */
export function formatHttpDate(nowMs?: number): string {
  if (nowMs !== undefined) return new Date(Math.floor(nowMs / 1000) * 1000).toUTCString();
  if (current === undefined) {
    const now = Date.now();
    current = new Date(now - (now % 1000)).toUTCString();
    setTimeout(forgetCurrent, 1000 - (now % 1000)).unref();
  }
  return current;
}
