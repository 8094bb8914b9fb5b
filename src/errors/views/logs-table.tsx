/** @jsxRuntime automatic @jsxImportSource preact */
import type { LogRecord } from '../../logging/log-record.js';

const PROBLEM_LEVELS = new Set(['error', 'critical', 'alert', 'emergency']);

export function countProblemLogs(logs: readonly LogRecord[]): number {
  return logs.filter((record) => PROBLEM_LEVELS.has(record.level)).length;
}

/** The records logged while handling the request: level, time, channel and message. */
export function LogsTable({ logs }: { logs: readonly LogRecord[] }) {
  if (logs.length === 0) return <div class="empty">No log messages</div>;
  return (
    <table class="logs">
      <thead>
        <tr>
          <th>Level</th>
          <th>Channel</th>
          <th class="full-width">Message</th>
        </tr>
      </thead>
      <tbody>
        {logs.map((record) => (
          <tr class={rowClass(record.level)}>
            <td class="nowrap">
              <strong>{record.level.toUpperCase()}</strong>
              <br />
              <span class="text-muted">{formatTime(record.time)}</span>
            </td>
            <td class="nowrap">{record.channel}</td>
            <td class="break-long-words">{record.message}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

function rowClass(level: LogRecord['level']): string | undefined {
  if (PROBLEM_LEVELS.has(level)) return 'status-error';
  return level === 'warning' ? 'status-warning' : undefined;
}

function formatTime(time: number): string {
  return Number.isFinite(time) ? new Date(time).toISOString().slice(11, 19) : '';
}
