/** PSR-3 / Monolog levels, in increasing severity. */
export const LOG_LEVELS = ['debug', 'info', 'notice', 'warning', 'error', 'critical', 'alert', 'emergency'] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];

/** One log line as the profiler's logs panel and the error page's Logs tab show it. */
export interface LogRecord {
  /** ms since the epoch, with sub-ms precision. */
  time: number;
  level: LogLevel;
  channel: string;
  /** The message with its `{placeholders}` already interpolated (Monolog's PsrLogMessageProcessor). */
  message: string;
  context: Record<string, unknown>;
  /**
   * The `id` of the request the record was logged for: an error sub-request's profile shows only its own
   * records, as the reference's does, where the main request's shows all of them.
   */
  requestId?: number;
}
