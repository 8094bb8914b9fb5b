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
const WITH_FUNCTION = /^\s*at (?:async )?(.*?) \((.*):(\d+):(\d+)\)$/;
const WITHOUT_FUNCTION = /^\s*at (?:async )?(.*):(\d+):(\d+)$/;

/**
 * Parses the frames of an `Error.stack` string. Lines V8 cannot place (`native`, `<anonymous>` without a
 * position, eval wrappers) are skipped, so every frame has a file and a line. `limit` stops after that many
 * frames (the log line only needs the first).
 */
export function parseStack(stack: string | undefined, limit = Number.POSITIVE_INFINITY): readonly StackFrame[] {
  if (stack === undefined) return NO_FRAMES;
  // The frames part of a stack (what follows the message) is the same for every error thrown on one code
  // path: its frames are parsed once and the list is shared, frozen (the profiler reuses its JSON too).
  const start = stack.indexOf('\n    at ');
  if (limit !== Number.POSITIVE_INFINITY || start === -1) return parseLines(stack, limit);
  const framesText = stack.slice(start + 1);
  let frames = parsedStacks.get(framesText);
  if (frames === undefined) {
    frames = Object.freeze(parseLines(framesText, limit));
    parsedStacks.set(framesText, frames);
  }
  // The message lines are parsed as before (a message can hold a line that reads like a frame).
  const head = parseLines(stack.slice(0, start), limit);
  return head.length === 0 ? frames : [...head, ...frames];
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
  const named = WITH_FUNCTION.exec(text);
  const match = named ?? WITHOUT_FUNCTION.exec(text);
  if (match === null) return null;
  const [fn, location, line, column] = named !== null ? [match[1]!, match[2]!, match[3]!, match[4]!] : ['', match[1]!, match[2]!, match[3]!];
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
