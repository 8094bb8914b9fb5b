// The IMF-fixdate of RFC 9110 §5.6.7 ("Sun, 06 Nov 1994 08:49:37 GMT"), which is exactly what
// Date#toUTCString() prints. Formatting a date costs more than a whole routing lookup, so the string is
// cached for the current second, as node:http does for its own Date header.
let cachedSecond = -1;
let cachedValue = '';

export function formatHttpDate(nowMs: number = Date.now()): string {
  const second = Math.floor(nowMs / 1000);
  if (second !== cachedSecond) {
    cachedSecond = second;
    cachedValue = new Date(second * 1000).toUTCString();
  }
  return cachedValue;
}
