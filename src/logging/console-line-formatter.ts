import type { LogRecord } from './log-record.js';

/**
 * A short, readable line for the terminal (Symfony's console handler style):
 * `10:52:51 ERROR     [request] Uncaught PHP Exception …`. Context is left to the log file.
 */
export function formatConsoleLine(record: LogRecord): string {
  const time = new Date(record.time).toISOString().slice(11, 19);
  const message = record.message.replace(/\r\n|\r|\n/g, ' ');
  return `${time} ${record.level.toUpperCase().padEnd(9)} [${record.channel}] ${message}\n`;
}
