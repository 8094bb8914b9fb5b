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

const DAY = '(?:Mon|Tue|Wed|Thu|Fri|Sat|Sun)';
const MONTH = '(?:Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec)';
const TIME = '\\d{2}:\\d{2}:\\d{2}';
const IMF_FIXDATE = new RegExp(`^${DAY}, \\d{2} ${MONTH} \\d{4} ${TIME} GMT$`);
const RFC_850 = new RegExp(`^(?:Monday|Tuesday|Wednesday|Thursday|Friday|Saturday|Sunday), \\d{2}-${MONTH}-\\d{2} ${TIME} GMT$`);
const ASCTIME = new RegExp(`^${DAY} ${MONTH} [ \\d]\\d ${TIME} \\d{4}$`);

/**
 * The time, in ms, of an HTTP-date in one of the three forms RFC 9110 §5.6.7 has recipients accept
 * (IMF-fixdate, RFC 850, asctime); undefined for anything else, which §13.1.3 and §13.1.4 say to ignore
 * in a condition. Date.parse alone took `2099` or `1` for dates.
 * @example parseHttpDate('Sun, 06 Nov 1994 08:49:37 GMT') // 784111777000
 */
export function parseHttpDate(value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  const text = value.trim();
  // asctime has no zone: it is GMT, where Date.parse would read it in the process's own.
  const time = IMF_FIXDATE.test(text) || RFC_850.test(text) ? Date.parse(text) : ASCTIME.test(text) ? Date.parse(`${text} GMT`) : Number.NaN;
  return Number.isNaN(time) ? undefined : time;
}
