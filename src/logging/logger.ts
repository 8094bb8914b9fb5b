import type { Request } from '../http/request.js';
import type { LogLevel } from './log-record.js';

export type LogContext = Record<string, unknown>;

/** Marks a context whose message is final text, not a template: see literalMessage(). */
export const LITERAL_MESSAGE: unique symbol = Symbol('keel.log.literalMessage');

/**
 * The context of a message already made from data (an error's message, a URL): the logger writes the
 * message as it is instead of filling its `{placeholders}` from the context, so that a client's
 * `/{exception}` stays what it requested. Invisible in the written context.
 * @example logger.error(`Uncaught ${flat.class}: "${flat.message}"`, literalMessage({ exception: error }))
 */
export function literalMessage(context: LogContext): LogContext {
  return Object.assign(context, { [LITERAL_MESSAGE]: true });
}

/** Whether the context marks its message literal (see literalMessage). */
export function isLiteralMessage(context: LogContext): boolean {
  return (context as { [LITERAL_MESSAGE]?: unknown })[LITERAL_MESSAGE] === true;
}

/**
 * What components log through. A logger belongs to a channel (`request`, `app`, `keel` …). Passing the
 * request attaches the record to that request's profile (its main request's log list) as well.
 */
export interface Logger {
  readonly channelName: string;
  channel(name: string): Logger;
  log(level: LogLevel, message: string, context?: LogContext, request?: Request): void;
  debug(message: string, context?: LogContext, request?: Request): void;
  info(message: string, context?: LogContext, request?: Request): void;
  warning(message: string, context?: LogContext, request?: Request): void;
  error(message: string, context?: LogContext, request?: Request): void;
  critical(message: string, context?: LogContext, request?: Request): void;
}

/** The level shortcuts, written once: an implementation provides `channel` and `log`. */
export abstract class AbstractLogger implements Logger {
  abstract readonly channelName: string;
  abstract channel(name: string): Logger;
  abstract log(level: LogLevel, message: string, context?: LogContext, request?: Request): void;

  debug(message: string, context?: LogContext, request?: Request): void {
    this.log('debug', message, context, request);
  }

  info(message: string, context?: LogContext, request?: Request): void {
    this.log('info', message, context, request);
  }

  warning(message: string, context?: LogContext, request?: Request): void {
    this.log('warning', message, context, request);
  }

  error(message: string, context?: LogContext, request?: Request): void {
    this.log('error', message, context, request);
  }

  critical(message: string, context?: LogContext, request?: Request): void {
    this.log('critical', message, context, request);
  }
}
