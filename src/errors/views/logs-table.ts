import { maskTextSecrets } from '../../config/mask-secrets.js';
import { html } from '../../internal/html-template.js';
import type { LogRecord } from '../../logging/log-record.js';
import { shownContext } from '../../logging/shown-context.js';
import { filterClasses, LogFilters } from './log-filters.js';

const PROBLEM_LEVELS = new Set(['error', 'critical', 'alert', 'emergency']);

export function countProblemLogs(logs: readonly LogRecord[]): number {
  return logs.filter((record) => PROBLEM_LEVELS.has(record.level)).length;
}

/**
 * The records logged while handling the request (`channels`: theirs, see channelsOf): level, time, channel, message and, under it, the
 * context as the reference shows it (pretty JSON, 4 spaces), secrets masked; filtered by level and
 * channel as the reference's are (see LogFilters).
 */
export function LogsTable({ logs, channels }: { logs: readonly LogRecord[]; channels: readonly string[] }) {
  if (logs.length === 0) return html`<div class="empty">No log messages</div>`;
  return html`
    <div class="log-list">
      ${LogFilters({ logs, channels })}
      <table class="logs">
        <thead>
          <tr><th>Level</th><th>Channel</th><th class="full-width">Message</th></tr>
        </thead>
        <tbody>${logs.map((record) => logRow(record, channels))}</tbody>
      </table>
    </div>
  `;
}

function logRow(record: LogRecord, channels: readonly string[]) {
  const status = statusClassOf(record.level);
  return html`
    <tr class="${status === undefined ? filterClasses(record, channels) : `${status} ${filterClasses(record, channels)}`}">
      <td class="nowrap"><strong>${record.level.toUpperCase()}</strong><br/><span class="text-muted">${formatTime(record.time)}</span></td>
      <td class="nowrap">${record.channel}</td>
      <td class="break-long-words">${maskTextSecrets(record.message)}${contextOf(record)}</td>
    </tr>
  `;
}

function contextOf(record: LogRecord) {
  if (Object.keys(record.context).length === 0) return null;
  return html`<pre class="text-muted prewrap m-t-5">${JSON.stringify(shownContext(record.context), null, 4)}</pre>`;
}

function statusClassOf(level: LogRecord['level']): string | undefined {
  if (PROBLEM_LEVELS.has(level)) return 'status-error';
  return level === 'warning' ? 'status-warning' : undefined;
}

// HH:MM:SS in UTC, as toISOString() writes it, by arithmetic: a Date and its ISO string per row cost more
// than the rest of the row.
function formatTime(time: number): string {
  if (!Number.isFinite(time)) return '';
  // As Date reads a time: whole milliseconds, the fraction dropped towards zero.
  const seconds = ((Math.floor(Math.trunc(time) / 1000) % 86_400) + 86_400) % 86_400;
  return `${twoDigits(Math.floor(seconds / 3600))}:${twoDigits(Math.floor(seconds / 60) % 60)}:${twoDigits(seconds % 60)}`;
}

function twoDigits(value: number): string {
  return value < 10 ? `0${value}` : String(value);
}
