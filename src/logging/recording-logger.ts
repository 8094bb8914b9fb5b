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
  declare readonly channelName: string;
  declare readonly records: RecordedLog[];

  constructor(
    channelName = 'app',
    records: RecordedLog[] = [],
  ) {
    super();
    this.channelName = channelName;
    this.records = records;
  }

  channel(name: string): Logger {
    return new RecordingLogger(name, this.records);
  }

  log(level: LogLevel, message: string, context: LogContext = {}, request?: Request): void {
    this.records.push({ level, channel: this.channelName, message: interpolate(message, context), context, request });
  }
}
