// What the search form's date fields send: a day alone.
const DAY = /^(\d{4})-(\d{2})-(\d{2})$/;
// PHP's d.m.Y.
const DOTTED_DAY = /^(\d{1,2})\.(\d{1,2})\.(\d{4})$/;
// ISO 8601's extended date and time, `T` or a space between them, seconds and their fraction optional, then
// the zone: `Z`, an offset (`+01:00`, `+0100`, `+01`), or none (UTC). Matched lower-cased.
const DATE_TIME = /^(\d{4})-(\d{2})-(\d{2})[t ](\d{2}):(\d{2})(?::(\d{2})(?:\.\d+)?)?(z|[+-]\d{2}(?::?\d{2})?)?$/;
// What PHP reads after the `@` the reference puts before a number: whole seconds, or with up to six decimals (PHP 8).
const UNIX_TIME = /^@?-?\d{1,12}(?:\.\d{0,6})?$/;
const DAY_WORDS: Record<string, number> = { today: 0, midnight: 0, yesterday: -1, tomorrow: 1 };
const UNIT_SECONDS: Record<string, number> = { sec: 1, second: 1, min: 60, minute: 60, hour: 3600, day: 86400, week: 604800, fortnight: 1209600 };
// One offset (`-1 hour`, `2days`), from the units above; a whole relative date is offsets, then `ago` or not.
const OFFSET = `([+-]?\\d+)\\s*(${Object.keys(UNIT_SECONDS).join('|')})s?`;
const RELATIVE = new RegExp(`^(?:${OFFSET}\\s*)+(ago)?$`);
const RELATIVE_PART = new RegExp(OFFSET, 'g');

/**
 * A search bound, in Unix seconds, as the reference reads it (`new DateTime($value)`, `@$value` when
 * numeric), in UTC: Unix time (`1795471200`, `@1795471200`, `1795471200.5`), a date with a time
 * (`2026-11-23T22:00:00Z`, `2026-11-23 22:00`, a zone-less one in UTC), a day (`2026-11-23`, what the form
 * sends, or `23.11.2026`; as `end`, the whole day), the words `now`, `today`, `midnight`, `yesterday` and
 * `tomorrow`, and offsets from now (`-1 hour`, `+2 days`, `3 weeks ago`). Undefined, no bound, for time 0,
 * which the reference's storage takes for none, and for anything else: text its DateTime refuses too
 * (`foo 1`; JavaScript's Date.parse read it as 2001), and the few forms it reads that are not listed here
 * (`Nov 23`, `3/4`, which it dates in the current year).
 * @example parseSearchDate('-1 hour', 1_795_471_200_000, false) // 1_795_467_600
 */
export function parseSearchDate(value: string, nowMs: number, endOfDay: boolean): number | undefined {
  const seconds = readDate(value.trim().toLowerCase(), nowMs, endOfDay);
  return seconds === undefined || seconds === 0 || !Number.isFinite(seconds) ? undefined : seconds;
}

function readDate(given: string, nowMs: number, endOfDay: boolean): number | undefined {
  const now = Math.floor(nowMs / 1000);
  if (given === '') return undefined;
  // Whole seconds, as DateTime::getTimestamp() gives them: 1795600000.5 is 1795600000.
  if (UNIX_TIME.test(given)) return Math.floor(Number(given.replace('@', '')));
  if (given === 'now') return now;
  const dayOffset = DAY_WORDS[given];
  if (dayOffset !== undefined) return now - (now % 86400) + dayOffset * 86400;
  if (RELATIVE.test(given)) {
    let offset = 0;
    for (const [, amount, unit] of given.matchAll(RELATIVE_PART)) offset += Number(amount) * UNIT_SECONDS[unit!]!;
    return now + (given.endsWith('ago') ? -offset : offset);
  }
  const dotted = DOTTED_DAY.exec(given);
  const day = DAY.exec(dotted === null ? given : `${dotted[3]}-${dotted[2]!.padStart(2, '0')}-${dotted[1]!.padStart(2, '0')}`);
  if (day !== null) {
    const start = utcSeconds(Number(day[1]), Number(day[2]), Number(day[3]), 0, 0, 0);
    return start === undefined ? undefined : start + (endOfDay ? 86399 : 0);
  }
  const moment = DATE_TIME.exec(given);
  if (moment === null) return undefined;
  const [, year, month, date, hours, minutes, seconds = '0', zone = 'z'] = moment;
  const local = utcSeconds(Number(year), Number(month), Number(date), Number(hours), Number(minutes), Number(seconds));
  return local === undefined ? undefined : local - zoneOffset(zone);
}

/**
 * The time of a calendar date and time read in UTC, or undefined for a field out of the ranges PHP's parser
 * takes (month 1–12, day 1–31, hour 0–24, minute 0–59, second 0–60). Within them a date past its month's
 * end runs over into the next month, as PHP's does: 2026-02-30 is 2026-03-02.
 */
function utcSeconds(year: number, month: number, day: number, hours: number, minutes: number, seconds: number): number | undefined {
  if (month < 1 || month > 12 || day < 1 || day > 31 || hours > 24 || minutes > 59 || seconds > 60) return undefined;
  const date = new Date(0);
  // setUTCFullYear, not Date.UTC: Date.UTC reads years 0–99 as 1900–1999.
  date.setUTCFullYear(year, month - 1, day);
  date.setUTCHours(hours, minutes, seconds);
  return date.getTime() / 1000;
}

// Seconds east of UTC: `z` is 0, `+01:00`, `+0100` and `+01` are 3600.
function zoneOffset(zone: string): number {
  const [, sign, hours = '0', minutes = '0'] = /^([+-])(\d{2}):?(\d{2})?$/.exec(zone) ?? [];
  return (sign === '-' ? -1 : 1) * (Number(hours) * 3600 + Number(minutes) * 60);
}
