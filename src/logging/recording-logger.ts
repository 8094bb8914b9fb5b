import type { Request } from '../http/request.js';
import { interpolate } from './interpolate.js';
import type { LogLevel } from './log-record.js';
import { AbstractLogger, type LogContext, type Logger } from './logger.js';

export interface RecordedLog {
  level: LogLevel;
  channel: string;
  /** With its placeholders filled. */
  message: string;
  context: LogContext;
  request: Request | undefined;
}

/**
 * Keeps every record in memory, channels sharing one list: for tests of listeners that log, and for
 * embedding keel where the host application collects logs itself.
 * @example
 * const logger = new RecordingLogger();
 * new RouterListener({ matcher, logger });
 * // … logger.records[0].message === 'Matched route "home".'
 */
export class RecordingLogger extends AbstractLogger {
  constructor(
    readonly channelName = 'app',
    readonly records: RecordedLog[] = [],
  ) {
    super();
  }

  channel(name: string): Logger {
    return new RecordingLogger(name, this.records);
  }

  log(level: LogLevel, message: string, context: LogContext = {}, request?: Request): void {
    this.records.push({ level, channel: this.channelName, message: interpolate(message, context), context, request });
  }
}
