// What the search form's date fields send: a day alone.
const DAY = /^\d{4}-\d{2}-\d{2}$/;
const UNIX_TIME = /^@?-?\d{1,12}$/;
// PHP's d.m.Y.
const DOTTED_DAY = /^(\d{1,2})\.(\d{1,2})\.(\d{4})$/;
const DAY_WORDS: Record<string, number> = { today: 0, midnight: 0, yesterday: -1, tomorrow: 1 };
const UNIT_SECONDS: Record<string, number> = { sec: 1, second: 1, min: 60, minute: 60, hour: 3600, day: 86400, week: 604800, fortnight: 1209600 };
// One offset (`-1 hour`, `2days`), from the units above; a whole relative date is offsets, then `ago` or not.
const OFFSET = `([+-]?\\d+)\\s*(${Object.keys(UNIT_SECONDS).join('|')})s?`;
const RELATIVE = new RegExp(`^(?:${OFFSET}\\s*)+(ago)?$`);
const RELATIVE_PART = new RegExp(OFFSET, 'g');

/**
 * A search bound, in Unix seconds, as the reference reads it (`new DateTime($value)`, `@$value` when
 * numeric), in UTC: Unix time (`1795471200`, `@1795471200`), a date with a time (`2026-11-23T22:00:00Z`),
 * a day (`2026-11-23`, what the form sends, or `23.11.2026`; as `end`, the whole day), the words `now`,
 * `today`, `midnight`, `yesterday` and `tomorrow`, and offsets from now (`-1 hour`, `+2 days`, `3 weeks ago`).
 * Undefined, no bound, for anything else, and for time 0, which the reference's storage takes for none.
 * @example parseSearchDate('-1 hour', 1_795_471_200_000, false) // 1_795_467_600
 */
export function parseSearchDate(value: string, nowMs: number, endOfDay: boolean): number | undefined {
  const seconds = readDate(value.trim().toLowerCase(), nowMs, endOfDay);
  return seconds === undefined || seconds === 0 || !Number.isFinite(seconds) ? undefined : seconds;
}

function readDate(given: string, nowMs: number, endOfDay: boolean): number | undefined {
  const now = Math.floor(nowMs / 1000);
  if (given === '') return undefined;
  if (UNIX_TIME.test(given)) return Number(given.replace('@', ''));
  if (given === 'now') return now;
  const dayOffset = DAY_WORDS[given];
  if (dayOffset !== undefined) return now - (now % 86400) + dayOffset * 86400;
  if (RELATIVE.test(given)) {
    let offset = 0;
    for (const [, amount, unit] of given.matchAll(RELATIVE_PART)) offset += Number(amount) * UNIT_SECONDS[unit!]!;
    return now + (given.endsWith('ago') ? -offset : offset);
  }
  const dotted = DOTTED_DAY.exec(given);
  const day = dotted === null ? given : `${dotted[3]}-${dotted[2]!.padStart(2, '0')}-${dotted[1]!.padStart(2, '0')}`;
  const value = Date.parse(day.toUpperCase());
  if (Number.isNaN(value)) return undefined;
  return Math.floor(value / 1000) + (endOfDay && DAY.test(day) ? 86399 : 0);
}
