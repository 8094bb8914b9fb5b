import { isAbsolute } from 'node:path';
import { fileURLToPath } from 'node:url';
import { BoundedMap } from '../internal/bounded-map.js';

/** One frame of a V8 stack trace: the function running and where in it, as tsx maps it to the .ts source. */
export interface StackFrame {
  /** `Class.method`, `fn`, `new Class`, or '' for top-level code. */
  function: string;
  /** Absolute path, or a `node:` specifier for Node's own modules. */
  file: string;
  line: number;
  column: number;
  /** False for dependencies (node_modules) and Node's internals: the page folds those away. */
  inApp: boolean;
}

// "    at async Kernel.handle (/app/src/kernel/kernel.ts:42:7)" or "    at /app/src/main.ts:3:1"
const WITHOUT_FUNCTION = /^\s*at (?:async )?(.*):(\d+):(\d+)$/;
// The position closing a frame with a function: tried from each `:`, it reads only the digits after it.
const POSITION = /:(\d+):(\d+)\)$/;
const LINE_TERMINATOR = /[\r\u2028\u2029]/;

/**
 * The frames of an error's stack. Only what follows the stack's header (`Name: message`, which V8 and
 * keel's source-mapped formatter both write first) is read: a message holds request data (a URL, a
 * profiler panel's name), and a line of it that reads like a frame must never become one, or a request
 * could point the error page's source excerpts, the log line and `X-Debug-Exception-File` at any file.
 */
export function errorFrames(error: Error, limit = Number.POSITIVE_INFINITY): readonly StackFrame[] {
  const stack = safeStack(error);
  if (stack === undefined) return NO_FRAMES;
  const header = headerOf(error);
  if (header !== undefined && stack.startsWith(header)) {
    if (stack.length === header.length) return NO_FRAMES;
    if (stack.charCodeAt(header.length) === NEWLINE) return parseFrames(stack.slice(header.length + 1), limit);
  }
  // A stack not written from the error's current name and message (rewritten by hand, or the message
  // changed after the stack was formatted): its frames are the lines after its last line that is no frame.
  return parseStack(stack, limit);
}

/**
 * Parses the frames of an `Error.stack` string whose header is not known: the trailing block of frame
 * lines (`    at …`), so that no line of a message, however many lines it has, is read as a frame. Lines V8
 * cannot place (`native`, `<anonymous>` without a position, eval wrappers) are skipped, so every frame has a
 * file and a line. `limit` stops after that many frames (the log line only needs the first).
 */
export function parseStack(stack: string | undefined, limit = Number.POSITIVE_INFINITY): readonly StackFrame[] {
  if (stack === undefined) return NO_FRAMES;
  const lines = stack.split('\n');
  let first = lines.length;
  while (first > 0 && FRAME_LINE.test(lines[first - 1]!)) first--;
  if (first === lines.length) return NO_FRAMES;
  return parseFrames(lines.slice(first).join('\n'), limit);
}

// The frames part of a stack is the same for every error thrown on one code path: its frames are parsed
// once and the list is shared, frozen (the profiler reuses its JSON too).
function parseFrames(framesText: string, limit: number): readonly StackFrame[] {
  if (limit !== Number.POSITIVE_INFINITY) return parseLines(framesText, limit);
  let frames = parsedStacks.get(framesText);
  if (frames === undefined) {
    frames = Object.freeze(parseLines(framesText, limit));
    parsedStacks.set(framesText, frames);
  }
  return frames;
}

const NEWLINE = 10;
const FRAME_LINE = /^\s*at /;

// A getter on `stack` or `name` (or a prepareStackTrace hook) may throw: a broken error must still render.
function safeStack(error: Error): string | undefined {
  try {
    return typeof error.stack === 'string' ? error.stack : undefined;
  } catch {
    return undefined;
  }
}

// What V8 writes before the frames: Error.prototype.toString's `name: message`.
function headerOf(error: Error): string | undefined {
  try {
    return Error.prototype.toString.call(error);
  } catch {
    return undefined;
  }
}

const NO_FRAMES: readonly StackFrame[] = Object.freeze([]);
const MAX_PARSED_STACKS = 1000;
const parsedStacks = new BoundedMap<string, readonly StackFrame[]>(MAX_PARSED_STACKS);

function parseLines(stack: string, limit: number): StackFrame[] {
  const frames: StackFrame[] = [];
  for (const text of stack.split('\n')) {
    if (frames.length >= limit) break;
    const frame = parseFrame(text);
    if (frame !== undefined) frames.push(frame);
  }
  return frames;
}

// The same call sites come back in every error of a code path (the router's 404 above all): each frame line
// is parsed once. The frames are frozen since they are shared. Only frames are kept: a message line (which
// holds the request's URL for a 404) fails the anchored regexes at once and would only crowd the cache.
// Bounded: a full cache starts over.
const MAX_PARSED_LINES = 10_000;
const parsedLines = new BoundedMap<string, Readonly<StackFrame>>(MAX_PARSED_LINES);

function parseFrame(text: string): Readonly<StackFrame> | undefined {
  let frame = parsedLines.get(text);
  if (frame === undefined) {
    frame = parseLine(text) ?? undefined;
    if (frame === undefined) return undefined;
    parsedLines.set(text, frame);
  }
  return frame;
}

function parseLine(text: string): Readonly<StackFrame> | null {
  const named = withFunction(text);
  const match = named === undefined ? WITHOUT_FUNCTION.exec(text) : null;
  if (named === undefined && match === null) return null;
  const [fn, location, line, column] = named ?? ['', match![1]!, match![2]!, match![3]!];
  if (location.startsWith('eval at ')) return null;
  const file = toPath(location);
  return Object.freeze({
    function: fn === '<anonymous>' ? '' : fn,
    file,
    line: Number(line),
    column: Number(column),
    inApp: isAppFile(file),
  });
}

/**
 * A frame line with a function, `at [async ]fn (location:line:column)`, read as the regex
 * /^\s*at (?:async )?(.*?) \((.*):(\d+):(\d+)\)$/ would read it: the function runs to the first ` (`. That
 * regex tried every ` (` against every `:` after it, and a message line that reads like a frame (a value
 * quoted in it holding `at x ( ( ( …`) took half a second for 16 kB.
 */
function withFunction(text: string): [string, string, string, string] | undefined {
  const start = FRAME_LINE.exec(text);
  if (start === null) return undefined;
  const rest = text.slice(start[0].length);
  if (LINE_TERMINATOR.test(rest)) return undefined;
  const position = POSITION.exec(rest);
  if (position === null) return undefined;
  // `async ` is taken when what follows it still has its ` (`, as the regex's optional group is.
  for (const from of rest.startsWith('async ') ? [6, 0] : [0]) {
    const open = rest.indexOf(' (', from);
    if (open !== -1 && open + 2 <= position.index) return [rest.slice(from, open), rest.slice(open + 2, position.index), position[1]!, position[2]!];
  }
  return undefined;
}

function toPath(location: string): string {
  if (!location.startsWith('file://')) return location;
  try {
    return fileURLToPath(location);
  } catch {
    return location;
  }
}

function isAppFile(file: string): boolean {
  return isAbsolute(file) && !/[\\/]node_modules[\\/]/.test(file);
}
