import type { LogRecord } from '../logging/log-record.js';
import type { ExceptionData } from '../profiler/collectors/exception-collector.js';
import type { LoggerData } from '../profiler/collectors/logger-collector.js';
import type { RequestData } from '../profiler/collectors/request-collector.js';
import type { ResponseData } from '../profiler/collectors/response-collector.js';
import type { TimeData } from '../profiler/collectors/time-collector.js';
import type { Profile } from '../profiler/profile.js';
import type { Style } from './style.js';
import { renderDefinitionList } from './table.js';
import { oneLine } from '../logging/one-line.js';

/**
 * A profile as text for a terminal: the request, the response, the exception chain and the log records.
 * A record written by another keel version may lack a panel; that section is then left out. Every text a
 * client could have put in the record (a path, a header, a message quoting them) is written on one line,
 * its control characters as `\u001b` (see oneLine): an escape sequence would otherwise act on the
 * developer's terminal.
 */
export function renderProfile(profile: Profile, style: Style): string {
  const { collectors } = profile;
  const request = collectors.request as Partial<RequestData> | undefined;
  const response = collectors.response as Partial<ResponseData> | undefined;
  const exception = collectors.exception as Partial<ExceptionData> | undefined;
  const logger = collectors.logger as Partial<LoggerData> | undefined;
  const time = collectors.time as Partial<TimeData> | undefined;
  const heading = (text: string): string => `\n${style.yellow(style.bold(text))}\n`;

  let out = `${style.bold(`Profile ${profile.token}`)}: ${oneLine(profile.method)} ${oneLine(profile.url)} → ${profile.statusCode}\n`;
  out += renderDefinitionList(
    [
      ['Recorded', new Date(profile.time * 1000).toISOString()],
      ['Client IP', oneLine(profile.ip)],
      ['Parent', profile.parent ?? 'none'],
      ['Children', profile.children.length === 0 ? 'none' : profile.children.join(', ')],
      ...(typeof time?.duration === 'number' ? [['Duration', `${time.duration.toFixed(1)} ms`] as [string, string]] : []),
    ],
    style,
  );

  if (request !== undefined) {
    out += heading('Request');
    out += renderDefinitionList(
      [
        ['Method', oneLine(request.method ?? profile.method)],
        ['URL', oneLine(request.url ?? profile.url)],
        ['Type', request.requestType ?? 'main'],
        ['Route', oneLine(request.route ?? 'n/a')],
        // The values are the decoded path: JSON escapes C0 controls only, not C1, bidi or line separators.
        ['Route params', oneLine(JSON.stringify(request.routeParams ?? {}))],
        ['Controller', oneLine(request.controller ?? 'n/a')],
        ['Client IP', oneLine(request.clientIp ?? profile.ip)],
        ['Headers', formatHeaders(Object.entries(request.headers ?? {}))],
      ],
      style,
    );
  }

  if (response !== undefined) {
    out += heading('Response');
    out += renderDefinitionList(
      [
        ['Status', `${response.statusCode ?? profile.statusCode} ${response.statusText ?? ''}`.trimEnd()],
        ['Headers', formatHeaders(response.headers ?? [])],
      ],
      style,
    );
  }

  const chain = exception?.chain ?? [];
  if (chain.length > 0) {
    out += heading('Exception');
    for (const [index, link] of chain.entries()) {
      const code = link.code === undefined ? '' : ` [${link.code}]`;
      out += `${index === 0 ? '' : 'Caused by: '}${style.red(oneLine(link.className))}${oneLine(code)}: ${oneLine(link.message)}\n  at ${oneLine(link.file)}:${link.line}\n`;
    }
  }

  const logs = logger?.logs ?? [];
  out += heading(`Logs (${logs.length})`);
  out += logs.length === 0 ? 'No log records.\n' : logs.map((record) => formatLog(record, style)).join('');
  return out;
}

function formatHeaders(entries: readonly (readonly [string, string | string[] | undefined])[]): string {
  if (entries.length === 0) return 'none';
  return entries.map(([name, value]) => oneLine(`${name}: ${Array.isArray(value) ? value.join(', ') : (value ?? '')}`)).join('\n');
}

function formatLog(record: LogRecord, style: Style): string {
  const level = record.level.toUpperCase().padEnd(8);
  const painted = ['error', 'critical', 'alert', 'emergency'].includes(record.level) ? style.red(level) : record.level === 'warning' ? style.yellow(level) : level;
  return `${new Date(record.time).toISOString().slice(11, 23)}  ${painted}  ${oneLine(record.channel).padEnd(8)}  ${oneLine(record.message)}\n`;
}
