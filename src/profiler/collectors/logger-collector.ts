import type { Request } from '../../http/request.js';
import type { LogRecord } from '../../logging/log-record.js';
import type { Collector } from './collector.js';
import { maskTextSecrets } from '../../config/mask-secrets.js';
import { shownContext } from '../../logging/shown-context.js';
import { isError } from '../../internal/is-error.js';

export interface LoggerData {
  logs: LogRecord[];
  /** The main request's records logged past the first MAX_REQUEST_LOGS, which were not kept. */
  dropped?: number;
}

/**
 * The log records of the main request and its sub-requests (of a sub-request: its own). Collecting only
 * copies the list; making the contexts storable (errors, cycles) waits for lateCollect, after the response,
 * which also picks up lines logged after the profile was collected. Secret-named context keys are masked like everywhere else, and so
 * are secret query parameters quoted in messages and context values. An error in a context keeps its stack
 * frames: one the application caught and logged has no exception panel to show where it came from.
 */
export class LoggerCollector implements Collector<LoggerData> {
  readonly name = 'logger';
  collect(request: Request): LoggerData {
    return { logs: logsOf(request, request.stack?.logs ?? []) };
  }

  lateCollect(data: LoggerData, request: Request, _response?: unknown, error?: unknown): LoggerData {
    const logs = request.stack === undefined ? data.logs : logsOf(request, request.stack.logs);
    // The record's error and its causes are the exception panel's: a log line naming one points there.
    const tracedElsewhere = errorChain(error);
    const dropped = request.isMainRequest ? (request.stack?.droppedLogs ?? 0) : 0;
    return {
      ...(dropped > 0 ? { dropped } : {}),
      // One copy per record, without its requestId: only the collector needed that.
      logs: logs.map(({ time, level, channel, message, context }) => ({
        time,
        level,
        channel,
        message: maskTextSecrets(message),
        context: shownContext(context, { traces: true, tracedElsewhere }),
      })),
    };
  }
}

// Symfony's LoggerDataCollector: the main request's profile has every record of the request and its
// sub-requests; a sub-request's, only those logged for it.
function logsOf(request: Request, logs: readonly LogRecord[]): LogRecord[] {
  return request.isMainRequest ? logs.slice() : logs.filter((record) => record.requestId === request.id);
}

function errorChain(error: unknown): unknown[] {
  const chain: unknown[] = [];
  for (let current = error; current !== undefined && current !== null && !chain.includes(current); current = isError(current) ? current.cause : undefined) chain.push(current);
  return chain;
}
