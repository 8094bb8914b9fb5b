import { isHttpException, type HttpErrorCode } from '../http/http-exception.js';
import { errorStatusText } from '../http/status-texts.js';
import { errorFrames, type StackFrame } from './stack-frame.js';
import { attached } from '../internal/attached.js';
import { isError, isInstance } from '../internal/is-error.js';

export interface FlatErrorOptions {
  /** Keep the stack traces (the debug page shows them); without it only the creation site is kept. */
  debug?: boolean;
  /** Forces the status, as Symfony's FlattenException::createFromThrowable($e, $statusCode). */
  statusCode?: number;
}

// A cause chain is user data: it can be cyclic or absurdly long.
export const MAX_CHAIN = 16;
// Causes counted past the cut at most, to say how many were left out.
const MAX_COUNTED = 10_000;
const NO_FRAMES: readonly StackFrame[] = Object.freeze([]);
const NO_EXTENSIONS: Readonly<Record<string, unknown>> = Object.freeze({});

/** The fields of a FlatError, as a record of plain data (a stored profile) provides them. */
export type FlatErrorInit = Omit<FlatError, 'toArray' | 'omittedCauses'> & { omittedCauses?: number };

/**
 * A plain snapshot of a thrown value and its `cause` chain (Symfony's FlattenException): what the
 * renderers, the log line and the profiler read, so none of them has to care what was thrown.
 */
export class FlatError {
  /** Constructor name (`NotFoundHttpException`); `Error` when something other than an object was thrown. */
  readonly class: string;
  readonly message: string;
  readonly code: HttpErrorCode | undefined;
  /** The HttpException's `expose`: production problem bodies show the message. */
  readonly expose: boolean;
  readonly status: number;
  readonly statusText: string;
  readonly headers: Readonly<Record<string, string>>;
  /** The HttpException's `extensions`: members its problem details carry besides the standard ones. */
  readonly extensions: Readonly<Record<string, unknown>>;
  /** Causes of this error left out of the chain, which stops at MAX_CHAIN errors: said where the chain is shown. */
  readonly omittedCauses: number;
  // Reading `error.stack` is the costly part of flattening (every frame goes through the source maps):
  // done on the first read of file, line or trace, never for a production 404 page that shows none of them.
  #frames: readonly StackFrame[] | undefined;
  #readFrames: (() => readonly StackFrame[]) | undefined;
  #file = '';
  #line = 0;
  // The cause, flattened when first asked for: a production error page shows none of the chain.
  #previous: FlatError | undefined;
  #flattenPrevious: (() => FlatError) | undefined;

  /**
   * With `readFrames`, file, line and trace are read from it when first asked for, and `init`'s are ignored;
   * with `flattenPrevious`, so is the cause.
   */
  constructor(init: FlatErrorInit, readFrames?: () => readonly StackFrame[], flattenPrevious?: () => FlatError) {
    this.class = init.class;
    this.message = init.message;
    this.code = init.code;
    this.expose = init.expose;
    this.status = init.status;
    this.statusText = init.statusText;
    this.headers = init.headers;
    this.extensions = init.extensions;
    this.omittedCauses = init.omittedCauses ?? 0;
    this.#previous = init.previous;
    this.#flattenPrevious = flattenPrevious;
    if (readFrames === undefined) {
      this.#file = init.file;
      this.#line = init.line;
      this.#frames = init.trace;
    } else {
      this.#readFrames = readFrames;
    }
  }

  /** Where the error was created: the first frame of its stack ('' and 0 when unknown). */
  get file(): string {
    if (this.#frames === undefined) this.#resolve();
    return this.#file;
  }

  get line(): number {
    if (this.#frames === undefined) this.#resolve();
    return this.#line;
  }

  get trace(): readonly StackFrame[] {
    if (this.#frames === undefined) this.#resolve();
    return this.#frames as readonly StackFrame[];
  }

  /** The error this one was caused by. */
  get previous(): FlatError | undefined {
    const flatten = this.#flattenPrevious;
    if (flatten !== undefined) {
      this.#flattenPrevious = undefined;
      this.#previous = flatten();
    }
    return this.#previous;
  }

  /** The error followed by its causes, outermost first. */
  toArray(): FlatError[] {
    return this.previous === undefined ? [this] : [this, ...this.previous.toArray()];
  }

  #resolve(): void {
    const read = this.#readFrames;
    this.#readFrames = undefined;
    const frames = read === undefined ? [] : read();
    this.#file = frames[0]?.file ?? '';
    this.#line = frames[0]?.line ?? 0;
    this.#frames = frames;
  }
}

/**
 * @example
 * const flat = createFlatError(new NotFoundHttpException('No route found for "GET /x"'), { debug: true });
 * flat.status // 404
 */
export function createFlatError(error: unknown, { debug = false, statusCode }: FlatErrorOptions = {}): FlatError {
  if (statusCode !== undefined || typeof error !== 'object' || error === null) return flatten(error, debug, statusCode, [], 0);
  // One failed request flattens its error up to four times (the log line, the error page, the records of the
  // request and of its error sub-request); a FlatError is immutable, so they share one and its parsed stack.
  return attached(error, debug ? DEBUG_FLAT : PLAIN_FLAT, () => flatten(error, debug, undefined, [], 0));
}

const DEBUG_FLAT = Symbol('keel.flatError.debug');
const PLAIN_FLAT = Symbol('keel.flatError');

// `seen`, the errors of the chain so far, is a list (at most MAX_CHAIN long), not a Set: each flattened error
// would make a hash table for one or two entries. `rest`, the errors the chain goes on with after this one's
// own (the other errors of an AggregateError above it).
function flatten(error: unknown, debug: boolean, statusCode: number | undefined, seen: unknown[], depth: number, rest: readonly unknown[] = NONE): FlatError {
  seen.push(error);
  const status = statusCode ?? (isHttpException(error) ? error.status : 500);
  const ahead = causesOf(error);
  const queue = ahead.length === 0 ? rest : rest.length === 0 ? ahead : [...ahead, ...rest];
  const at = firstUnseen(queue, seen);
  const followed = at !== -1;
  const hasCause = followed && depth + 1 < MAX_CHAIN;
  const hasStack = isError(error);
  // One object literal straight into the constructor: spreading it into another cost microseconds.
  return new FlatError(
    {
      class: classNameOf(error),
      message: messageOf(error),
      code: isHttpException(error) ? error.code : undefined,
      expose: isHttpException(error) && error.expose,
      status,
      statusText: errorStatusText(status),
      headers: isHttpException(error) ? { ...error.headers } : {},
      extensions: isHttpException(error) ? error.extensions : NO_EXTENSIONS,
      file: '',
      line: 0,
      trace: NO_FRAMES,
      previous: undefined,
      omittedCauses: followed && !hasCause ? countCauses(queue.slice(at), seen) : 0,
    },
    hasStack
      ? () => {
          const frames = errorFrames(error);
          return debug ? frames : frames.slice(0, 1);
        }
      : undefined,
    hasCause ? () => flatten(queue[at], debug, undefined, seen, depth + 1, queue.slice(at + 1)) : undefined,
  );
}

function firstUnseen(queue: readonly unknown[], seen: readonly unknown[]): number {
  for (let i = 0; i < queue.length; i++) if (queue[i] !== undefined && queue[i] !== null && !seen.includes(queue[i])) return i;
  return -1;
}

// The errors of a chain from `queue` on, each counted once, to MAX_COUNTED at most.
function countCauses(queue: readonly unknown[], seen: readonly unknown[]): number {
  const met = new Set<unknown>(seen);
  const pending = [...queue].reverse();
  let count = 0;
  while (pending.length > 0 && count < MAX_COUNTED) {
    const cause = pending.pop();
    if (cause === undefined || cause === null || met.has(cause)) continue;
    met.add(cause);
    count++;
    const ahead = causesOf(cause);
    for (let i = ahead.length - 1; i >= 0 && pending.length < MAX_COUNTED; i--) pending.push(ahead[i]);
  }
  return count;
}

/**
 * The errors the chain goes on with after `error`, in the order it shows them: its cause, then, for an
 * AggregateError (Promise.any(), a connection refused on each of a host's addresses), the errors it
 * aggregates, which its own message (`All promises were rejected`, or none) does not say.
 */
export function causesOf(error: unknown): readonly unknown[] {
  const cause = causeOf(error);
  const aggregated = aggregatedOf(error);
  if (aggregated.length === 0) return cause === undefined || cause === null ? NONE : [cause];
  return cause === undefined || cause === null ? aggregated : [cause, ...aggregated];
}

const NONE: readonly unknown[] = Object.freeze([]);

function aggregatedOf(error: unknown): readonly unknown[] {
  try {
    if (!isInstance(error, AggregateError)) return NONE;
    const errors: unknown = error.errors;
    return Array.isArray(errors) ? errors.slice(0, MAX_COUNTED) : NONE;
  } catch {
    return NONE;
  }
}

// What is thrown is any value: a getter that throws (constructor, cause) or a Proxy whose traps throw must
// not make the report of the error fail in turn, losing it and its log line. Each read falls back.

/** The class a thrown value shows as: its constructor's name, `Object` when it has none (or reading it throws). */
export function classNameOf(error: unknown): string {
  if (typeof error !== 'object' || error === null) return 'Error';
  try {
    const name = (error as { constructor?: { name?: unknown } }).constructor?.name;
    return typeof name === 'string' && name !== '' ? name : 'Object';
  } catch {
    return 'Object';
  }
}

function causeOf(error: unknown): unknown {
  try {
    return isError(error) ? error.cause : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The message of a thrown value: an Error's, a string as it is, anything else as JSON or String() gives it;
 * never a throw of its own (a getter, a toString that throws, an object without prototype), since an error
 * being reported must still be reported.
 */
export function messageOf(error: unknown): string {
  if (typeof error === 'string') return error;
  try {
    if (isError(error)) return String(error.message);
    return typeof error === 'object' && error !== null ? JSON.stringify(error) ?? String(error) : String(error);
  } catch {
    return tagOf(error);
  }
}

// `[object Error]`, `[object Object]`: what is left to say of a value none of whose reads succeed (a Proxy
// whose get trap throws fails even this one, through its Symbol.toStringTag).
function tagOf(value: unknown): string {
  try {
    return Object.prototype.toString.call(value);
  } catch {
    return typeof value === 'function' ? '[object Function]' : '[object Object]';
  }
}
