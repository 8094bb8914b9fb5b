/** @jsxRuntime automatic @jsxImportSource preact */
import type { LoggerData } from '../../../collectors/logger-collector.js';
import { maskTextSecrets } from '../../../../config/mask-secrets.js';
import { MAX_REQUEST_LOGS } from '../../../../kernel/request-stack.js';
import { LOG_LEVELS, type LogLevel, type LogRecord } from '../../../../logging/log-record.js';
import { LogContext } from '../log-context.js';
import { panelUrl, type PanelProps } from './panel.js';
import { queryParameter } from '../../query-parameter.js';

/**
 * Every record logged while handling the request and its sub-requests, filtered by minimum level and by
 * channel through the query string (`?panel=logger&level=warning&channel=request`): links, no script.
 */
export function LoggerPanel({ profile, data, base, query }: PanelProps<LoggerData>) {
  const level = parseLevel(queryParameter(query, 'level'));
  const channel = queryParameter(query, 'channel') ?? '';
  const channels = [...new Set(data.logs.map((record) => record.channel))].sort();
  const shown = data.logs.filter((record) => LOG_LEVELS.indexOf(record.level) >= LOG_LEVELS.indexOf(level) && (channel === '' || record.channel === channel));
  const link = (filters: { level?: string; channel?: string }) => {
    const extra: Record<string, string> = {};
    const nextLevel = filters.level ?? level;
    const nextChannel = filters.channel ?? channel;
    if (nextLevel !== 'debug') extra['level'] = nextLevel;
    if (nextChannel !== '') extra['channel'] = nextChannel;
    return panelUrl(base, profile.token, 'logger', extra);
  };

  return (
    <div>
      <h2>Log Messages</h2>
      <div class="metrics">
        <Metric value={count(data.logs, ['error', 'critical', 'alert', 'emergency'])} label="Errors" />
        <Metric value={count(data.logs, ['warning'])} label="Warnings" />
        <Metric value={data.logs.length} label="Messages" />
      </div>
      <nav class="filters" aria-label="Log level">
        <span>Level:</span>
        {(['debug', 'info', 'notice', 'warning', 'error'] as const).map((name) => (
          <a class={name === level ? 'filter selected' : 'filter'} href={link({ level: name })}>
            {name === 'debug' ? 'all' : `${name}+`}
          </a>
        ))}
      </nav>
      <nav class="filters" aria-label="Log channel">
        <span>Channel:</span>
        <a class={channel === '' ? 'filter selected' : 'filter'} href={link({ channel: '' })}>
          all
        </a>
        {channels.map((name) => (
          <a class={name === channel ? 'filter selected' : 'filter'} href={link({ channel: name })}>
            {name}
          </a>
        ))}
      </nav>
      {shown.length === 0 ? <p class="empty">There are no log messages.</p> : <LogTable logs={shown} />}
      {data.dropped !== undefined && <p class="empty">{`${data.dropped} later messages were not kept: a request keeps its first ${MAX_REQUEST_LOGS}.`}</p>}
    </div>
  );
}

function LogTable({ logs }: { logs: LogRecord[] }) {
  return (
    <table class="logs">
      <thead>
        <tr>
          <th>Time</th>
          <th>Level</th>
          <th>Channel</th>
          <th>Message</th>
        </tr>
      </thead>
      <tbody>
        {logs.map((record) => (
          <tr class={`level-${record.level}`}>
            <td>{new Date(record.time).toISOString().slice(11, 23)}</td>
            <td>{record.level.toUpperCase()}</td>
            <td>{record.channel}</td>
            <td>
              {/* Masked here too (see LogContext). */}
              {maskTextSecrets(record.message)}
              {Object.keys(record.context).length > 0 && <LogContext context={record.context} />}
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

function Metric({ value, label }: { value: number; label: string }) {
  return (
    <div class="metric">
      <span class="value">{value}</span>
      <span class="label">{label}</span>
    </div>
  );
}

function count(logs: readonly LogRecord[], levels: readonly LogLevel[]): number {
  return logs.filter((record) => levels.includes(record.level)).length;
}

function parseLevel(value: string | null): LogLevel {
  return (LOG_LEVELS as readonly string[]).includes(value ?? '') ? (value as LogLevel) : 'debug';
}
