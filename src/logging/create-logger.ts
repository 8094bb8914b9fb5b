import pino from 'pino';
import type { AppEnv } from '../config/config.js';
import type { Request } from '../http/request.js';
import { formatConsoleLine } from './console-line-formatter.js';
import { interpolate } from './interpolate.js';
import { serializeError } from './error-serializer.js';
import { openDestination, wrapWriter, type LineWriter, type LogDestination } from './log-destination.js';
import { LOG_LEVELS, type LogLevel, type LogRecord } from './log-record.js';
import { AbstractLogger, isLiteralMessage, literalMessage, type LogContext, type Logger } from './logger.js';
import { formatMonologLine } from './monolog-line-formatter.js';
import { escapeJsonControls } from './one-line.js';
import { RequestLogBuffer } from './request-log-buffer.js';
import { isError } from '../internal/is-error.js';
import { setOwn } from '../internal/set-own.js';

export interface LoggerOptions {
  env: AppEnv;
  /** In debug, records passed with a request are also kept on it for the profiler and the error page. */
  debug: boolean;
  /** Records below this level are not written (they still reach the request in debug). */
  level?: LogLevel;
  /** dev and test: the Monolog-format log file; prod: a JSON-lines file besides stdout. */
  file?: string;
  /** A readable copy of each record from info up on stderr; defaults to on in dev only. */
  stderr?: boolean;
  /** Replaces the main output (the file in dev and test, stdout in prod). */
  destination?: LineWriter;
  /** ms since the epoch with sub-ms precision (the log line shows microseconds). */
  now?: () => number;
  /**
   * prod: a request's records below this level are held back until one at this level or above comes, then
   * written with it, and dropped if none comes (the reference's `fingers_crossed`, action level error,
   * 50 records a request); `false` writes each record as it comes. Default: `error`.
   */
  actionLevel?: LogLevel | false;
}

export interface ClosableLogger extends Logger {
  /** Resolves when every record logged so far has been written. */
  flush(): Promise<void>;
  close(): Promise<void>;
}

// Set while a held-back record is written: pino's timestamp function reads it.
let replayedTime: number | undefined;

// pino's numbers for Monolog's names; only these levels exist, so a typo cannot log silently at "info".
const PINO_LEVELS: Record<LogLevel, number> = { debug: 20, info: 30, notice: 35, warning: 40, error: 50, critical: 60, alert: 70, emergency: 80 };

// A held-back record, written later by the channel that logged it, with the time it was logged.
interface HeldRecord {
  pino: pino.Logger<LogLevel>;
  level: LogLevel;
  context: LogContext;
  /** The message template: interpolated only if the record is written (most held records never are). */
  message: string;
  /** The context as logged, which fills the template (see #writeJson). */
  values: LogContext;
  time: number;
}

interface Sinks {
  threshold: number;
  /** prod: records of a request held back until one at the action level (fingers crossed). */
  held: RequestLogBuffer<HeldRecord> | undefined;
  debug: boolean;
  now: () => number;
  /** Monolog lines (dev, test). */
  lines: LogDestination | undefined;
  console: LogDestination | undefined;
  /** JSON lines (prod). */
  pino: pino.Logger<LogLevel> | undefined;
  destinations: LogDestination[];
}

/**
 * Creates the application logger. dev writes Symfony's `var/log/dev.log` line format (sync, so a test can
 * read the file as soon as a response is back) and a short line per record on stderr; test writes
 * `test.log` only; prod writes pino's JSON lines to stdout (and to `file`), asynchronously.
 * @example
 * const logger = createLogger({ env: 'dev', debug: true, level: 'debug', file: 'var/log/dev.log' });
 * logger.channel('request').info('Matched route "{route}".', { route: 'home' }, request);
 */
export function createLogger({ env, debug, level = 'debug', file, stderr = env === 'dev', destination, now = wallClockMicros, actionLevel = 'error' }: LoggerOptions): ClosableLogger {
  const sinks: Sinks = { threshold: LOG_LEVELS.indexOf(level), held: undefined, debug, now, lines: undefined, console: undefined, pino: undefined, destinations: [] };
  if (env === 'prod') {
    if (actionLevel !== false) sinks.held = new RequestLogBuffer({ actionLevel: LOG_LEVELS.indexOf(actionLevel), size: 50 });
    const outputs = [destination !== undefined ? wrapWriter(destination) : openDestination(1, { sync: false })];
    if (file !== undefined) outputs.push(openDestination(file, { sync: false }));
    sinks.destinations.push(...outputs);
    const lines = outputs.map(escapedLines);
    const stream = lines.length === 1 ? lines[0]! : pino.multistream(lines.map((out) => ({ stream: out, level: PINO_LEVELS.debug })), { levels: PINO_LEVELS });
    sinks.pino = pino<LogLevel, true>(
      {
        level,
        customLevels: PINO_LEVELS,
        useOnlyCustomLevels: true,
        formatters: { level: (label) => ({ level: label }) },
        // A held-back record keeps the time it was logged at, not the time it is written.
        timestamp: () => `,"time":${replayedTime ?? Date.now()}`,
        // errWithCause: each error keeps its own message and its cause nests under `cause`; `err` joined the
        // causes into the message, which for keel's errors (a 400 wrapping the same text) said it twice.
        serializers: { exception: serializeError, err: serializeError },
      },
      stream,
    );
  } else {
    if (destination !== undefined) sinks.lines = wrapWriter(destination);
    else if (file !== undefined) sinks.lines = openDestination(file, { sync: true });
    if (stderr) sinks.console = openDestination(2, { sync: true });
    for (const out of [sinks.lines, sinks.console]) if (out !== undefined) sinks.destinations.push(out);
  }
  return new ChannelLogger('app', sinks);
}

class ChannelLogger extends AbstractLogger implements ClosableLogger {
  readonly channelName: string;
  readonly #sinks: Sinks;
  readonly #pino: pino.Logger<LogLevel> | undefined;
  readonly #children = new Map<string, ChannelLogger>();

  constructor(channelName: string, sinks: Sinks) {
    super();
    this.channelName = channelName;
    this.#sinks = sinks;
    this.#pino = sinks.pino?.child({ channel: channelName });
  }

  channel(name: string): Logger {
    let child = this.#children.get(name);
    if (child === undefined) {
      child = new ChannelLogger(name, this.#sinks);
      this.#children.set(name, child);
    }
    return child;
  }

  log(level: LogLevel, message: string, context: LogContext = {}, request?: Request): void {
    const sinks = this.#sinks;
    const written = LOG_LEVELS.indexOf(level) >= sinks.threshold;
    const stack = sinks.debug ? request?.stack : undefined;
    if (!written && stack === undefined) return;
    if (written && this.#pino !== undefined) this.#writeJson(level, context, message, request);
    if (stack === undefined && sinks.lines === undefined && sinks.console === undefined) return;
    const text = messageText(message, context);
    const record: LogRecord = { time: sinks.now(), level, channel: this.channelName, message: text, context, requestId: request?.id };
    // The request's copy is what its profile and debug page show: a `{password}` its message filled is
    // masked there, as the context key beside it is. Filled again only if the template filled anything.
    stack?.addLog(text === message ? record : { ...record, message: interpolate(message, context, { maskSecrets: true }) });
    if (!written) return;
    sinks.lines?.write(formatMonologLine(record));
    if (sinks.console !== undefined && level !== 'debug') sinks.console.write(formatConsoleLine(record));
  }

  #writeJson(level: LogLevel, given: LogContext, message: string, request: Request | undefined): void {
    // `reqId` ties a request's lines together, as Fastify's do: the main request's, so that its error
    // sub-request's lines join it (with pino's `pid`, unique across cluster workers).
    const context = jsonContext(given, request === undefined ? undefined : (request.stack?.main ?? request).id);
    // The message is filled from the context as logged, as dev's lines are: the line's context has `reqId`
    // added, keys renamed (`{level}` is the caller's, not `context_level`) and errors serialised.
    const held = this.#sinks.held;
    if (held === undefined) {
      this.#pino![level](context, messageText(message, given));
      return;
    }
    // Held per main request: its sub-requests share its stack.
    const owner = request?.stack;
    const record: HeldRecord = { pino: this.#pino!, level, context, message, values: given, time: Date.now() };
    for (const ready of held.offer(owner, LOG_LEVELS.indexOf(level), record)) {
      replayedTime = ready.time;
      try {
        ready.pino[ready.level](ready.context, messageText(ready.message, ready.values));
      } finally {
        replayedTime = undefined;
      }
    }
  }

  async flush(): Promise<void> {
    await Promise.all(this.#sinks.destinations.map((destination) => destination.flush()));
  }

  async close(): Promise<void> {
    await Promise.all(this.#sinks.destinations.map((destination) => destination.close()));
  }
}

function messageText(message: string, context: LogContext): string {
  return isLiteralMessage(context) ? message : interpolate(message, context);
}

// The fields pino and keel write on every line: a context key of the same name would write the key twice,
// and a reader keeping the last would take the context's for the line's own (a forged level or channel).
const LINE_FIELDS = new Set(['level', 'time', 'pid', 'hostname', 'msg', 'channel', 'reqId']);

/**
 * The context as a JSON line carries it: `reqId` first (the main request's id, which ties a request's
 * lines together, as Fastify's do); a key naming one of the line's own fields renamed `context_<key>`; and
 * an Error under any key serialised (pino has serializers for `exception` and `err` only: elsewhere an
 * Error, whose fields are not enumerable, was written `{}`).
 */
function jsonContext(given: LogContext, reqId: number | undefined): LogContext {
  const keys = Object.keys(given);
  if (reqId === undefined && !keys.some((key) => LINE_FIELDS.has(key) || isStrayError(key, given[key]))) return given;
  const context: LogContext = reqId === undefined ? {} : { reqId };
  for (const key of keys) setOwn(context, LINE_FIELDS.has(key) ? `context_${key}` : key, isStrayError(key, given[key]) ? serializeError(given[key] as Error) : given[key]);
  // The literal-message mark goes along (see literalMessage).
  return isLiteralMessage(given) ? literalMessage(context) : context;
}

function isStrayError(key: string, value: unknown): boolean {
  if (key === 'exception' || key === 'err') return false;
  return isError(value);
}

/**
 * An output of JSON lines that writes each with escapeJsonControls, as dev's lines are written (see
 * formatMonologLine): stdout is read on terminals too (`docker logs -f`), and a client's `\u009b31m`,
 * which pino writes raw, must not drive them.
 */
function escapedLines(out: LineWriter): LineWriter {
  return { write: (line: string) => out.write(escapeJsonControls(line)) };
}

/**
 * The wall clock with sub-millisecond digits, for Monolog's microseconds: `precise` (performance.now())
 * gives the digits, set back on `wall` whenever the two part by more than 50 ms (the machine slept, the
 * clock was set: performance.now() stops with the process, and every later line would have been dated too
 * early).
 */
export function createWallClock(precise: () => number = () => performance.now(), wall: () => number = Date.now): () => number {
  let offset = wall() - precise();
  return () => {
    const time = offset + precise();
    const now = wall();
    if (Math.abs(now - time) <= 50) return time;
    offset = now - precise();
    return now;
  };
}

const wallClockMicros = createWallClock();
