import { normalizeContext } from './normalize-context.js';
import { escapeJsonControls, oneLine } from './one-line.js';
import type { LogRecord } from './log-record.js';

/**
 * One record in Monolog's default line format, as Symfony's dev.log has it:
 * `[2026-11-22T10:52:03.253366+00:00] request.ERROR: <message> <context JSON or []> []`.
 * The message is already interpolated, and made one line (see oneLine), so one record is always one line.
 */
export function formatMonologLine(record: LogRecord): string {
  const message = oneLine(record.message);
  return `[${formatMonologDate(record.time)}] ${record.channel}.${record.level.toUpperCase()}: ${message} ${formatContext(record.context)} []\n`;
}

/**
 * ISO 8601 with microseconds and `+00:00`, Monolog's `Y-m-d\TH:i:s.uP` in UTC.
 * @example formatMonologDate(1795344771171.254) // '2026-11-22T10:52:51.171254+00:00'
 */
export function formatMonologDate(timeMs: number): string {
  const micros = Math.round(timeMs * 1000);
  const seconds = Math.floor(micros / 1_000_000);
  // Lines come in bursts within one second: its text is built once.
  if (seconds !== lastSecond) {
    lastSecond = seconds;
    lastSecondText = new Date(seconds * 1000).toISOString().slice(0, 19);
  }
  return `${lastSecondText}.${String(micros - seconds * 1_000_000).padStart(6, '0')}+00:00`;
}

let lastSecond = Number.NaN;
let lastSecondText = '';

function formatContext(context: Record<string, unknown>): string {
  if (Object.keys(context).length === 0) return '[]';
  // PHP's json_encode(JSON_UNESCAPED_SLASHES | JSON_UNESCAPED_UNICODE) matches JSON.stringify, except that
  // it escapes the two JavaScript line terminators. DEL, the C1 controls and the bidi controls are escaped
  // too, as the message's are (see oneLine): a client's `\u009b31m` must not drive the terminal of a
  // `tail -f`, nor a `\u202e` reorder the rest of the line (an uncaught error's message is in both).
  let json: string;
  try {
    json = JSON.stringify(normalizeContext(context));
  } catch (error) {
    // A record is written whatever its context holds (a getter that throws, a string too long to build).
    json = JSON.stringify({ context: `not written: ${error instanceof Error ? error.message : String(error)}` });
  }
  return escapeJsonControls(json);
}
