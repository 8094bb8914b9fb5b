import type { Request } from '../../http/request.js';
import type { LogRecord } from '../../logging/log-record.js';
import type { Collector } from './collector.js';
import { maskSecrets } from '../../config/mask-secrets.js';
import { maskTextSecrets } from '../../config/mask-secrets.js';

export interface LoggerData {
  logs: LogRecord[];
}

/**
 * The log records of the main request and its sub-requests (of a sub-request: its own). Collecting only
 * copies the list; making the contexts storable (errors, cycles) waits for lateCollect, after the response,
 * which also picks up lines logged after the profile was collected. Secret-named context keys are masked like everywhere else, and so
 * are secret query parameters quoted in messages and context values.
 */
export class LoggerCollector implements Collector<LoggerData> {
  readonly name = 'logger';

  collect(request: Request): LoggerData {
    return { logs: logsOf(request, request.stack?.logs ?? []) };
  }

  lateCollect(data: LoggerData, request: Request): LoggerData {
    const logs = request.stack === undefined ? data.logs : logsOf(request, request.stack.logs);
    return {
      // One copy per record, without its requestId: only the collector needed that.
      logs: logs.map(({ time, level, channel, message, context }) => ({
        time,
        level,
        channel,
        message: maskTextSecrets(message),
        context: maskSecrets(toStorable(context, 0)) as Record<string, unknown>,
      })),
    };
  }
}

// Symfony's LoggerDataCollector: the main request's profile has every record of the request and its
// sub-requests; a sub-request's, only those logged for it.
function logsOf(request: Request, logs: readonly LogRecord[]): LogRecord[] {
  return request.isMainRequest ? logs.slice() : logs.filter((record) => record.requestId === request.id);
}

const MAX_DEPTH = 5;

/**
 * A JSON-safe copy: errors become `{ class, message }`, deep or cyclic structures are cut, and secret query
 * parameters quoted in strings are masked (the matched route's `request_uri`, a referer).
 */
export function toStorable(value: unknown, depth: number): unknown {
  if (typeof value === 'string') return maskTextSecrets(value);
  if (value === null || typeof value !== 'object') {
    if (typeof value === 'bigint' || typeof value === 'symbol' || typeof value === 'function') return String(value);
    return value;
  }
  if (value instanceof Error) return { class: value.constructor.name, message: maskTextSecrets(String(value.message)) };
  if (depth >= MAX_DEPTH) return '[…]';
  if (Array.isArray(value)) return value.map((item) => toStorable(item, depth + 1));
  const out: Record<string, unknown> = {};
  for (const [key, inner] of Object.entries(value)) out[key] = toStorable(inner, depth + 1);
  return out;
}
