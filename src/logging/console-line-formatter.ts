import { maskTextSecrets } from '../config/mask-secrets.js';
import { messageOf } from '../errors/flat-error.js';
import type { LogRecord } from './log-record.js';
import { oneLine } from './one-line.js';
import { isError } from '../internal/is-error.js';

/**
 * A short, readable line for the terminal (Symfony's console handler style):
 * `10:52:51 ERROR     [request] Uncaught PHP Exception …`. Context is left to the log file, except the
 * first line of an `error` or `exception` it names that the message does not already say: when the log file
 * is what fails (a full disk), the terminal is the only place left to say why.
 */
export function formatConsoleLine(record: LogRecord): string {
  const time = new Date(record.time).toISOString().slice(11, 19);
  // The `exception` of an uncaught-exception line is in its message already; another record's is not.
  const exception = errorText(record.context['exception']);
  const reason = errorText(record.context['error']) ?? (exception !== undefined && !record.message.includes(exception) ? exception : undefined);
  const message = oneLine(reason === undefined ? record.message : `${record.message}: ${maskTextSecrets(reason)}`);
  return `${time} ${record.level.toUpperCase().padEnd(9)} [${record.channel}] ${message}\n`;
}

function errorText(error: unknown): string | undefined {
  // messageOf: an Error's message may be set to anything, or be a getter that throws.
  const text = isError(error) ? messageOf(error) : typeof error === 'string' ? error : undefined;
  return text === undefined || text === '' ? undefined : text.split(/\r\n|\r|\n/, 1)[0];
}
