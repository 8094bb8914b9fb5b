import type { FlatError } from '../flat-error.js';
import type { StackFrame } from '../stack-frame.js';
import type { RenderContext, RenderedError } from './renderer.js';
import { debugExceptionHeaders } from './debug-headers.js';
import { withOwnHeaders } from './own-headers.js';

/** One trace entry in the shape Symfony's serializer gives PHP frames, so existing clients can read it. */
export interface ProblemTraceEntry {
  namespace: string;
  short_class: string;
  class: string;
  type: string;
  function: string;
  file: string;
  line: number;
  args: [];
}

/** RFC 7807-style body of Symfony's ProblemNormalizer, and the error's extension members. */
export interface Problem {
  type: string;
  title: string;
  status: number;
  detail: string;
  class?: string;
  trace?: ProblemTraceEntry[];
  [extension: string]: unknown;
}

/**
 * The message only in debug, or when the exception was raised with `expose`: otherwise the status text,
 * whatever the status (Symfony's ProblemNormalizer). The error's extension members follow, in every mode:
 * the application chose them for its clients.
 */
export function createProblem(flat: FlatError, debug: boolean): Problem {
  const problem: Problem = {
    type: 'https://tools.ietf.org/html/rfc2616#section-10',
    title: 'An error occurred',
    status: flat.status,
    detail: debug || flat.expose ? flat.message : flat.statusText,
    // After the standard members, which they cannot replace (HttpException refuses those names).
    ...flat.extensions,
  };
  if (debug) {
    problem.class = flat.class;
    problem.trace = flat.trace.map((frame, i) => toTraceEntry(frame, flat.trace[i - 1]));
  }
  return problem;
}

/**
 * FlattenException's entries read as PHP traces read: each names the function *called* at its file and
 * line, which is the function of the frame above it in a JavaScript stack; the first is the throw site
 * alone, with no function. The outermost frame's own function names nothing, as PHP's `{main}`.
 */
function toTraceEntry(at: StackFrame, called: StackFrame | undefined): ProblemTraceEntry {
  const { cls, fn } = called === undefined ? { cls: '', fn: '' } : splitFunction(called.function);
  return { namespace: '', short_class: cls, class: cls, type: cls === '' ? '' : '->', function: fn, file: at.file, line: at.line, args: [] };
}

function splitFunction(qualified: string): { cls: string; fn: string } {
  if (qualified.startsWith('new ')) return { cls: qualified.slice(4), fn: 'constructor' };
  const dot = qualified.lastIndexOf('.');
  return { cls: dot === -1 ? '' : qualified.slice(0, dot), fn: qualified.slice(dot + 1) };
}

/**
 * Headers of a serialised error, in the order Symfony's SerializerErrorRenderer produces them:
 * `Vary: Accept`, the debug headers, the exception's own headers (Allow, Retry-After; one the renderer
 * set is replaced, see withOwnHeaders), then Content-Type unless the exception gave its own.
 */
export function renderProblemResponse(flat: FlatError, { debug }: RenderContext, contentType: string, body: string): RenderedError {
  const headers = withOwnHeaders([['Vary', 'Accept'], ...(debug ? debugExceptionHeaders(flat) : [])], flat.headers);
  if (!headers.some(([name]) => name.toLowerCase() === 'content-type')) headers.push(['Content-Type', contentType]);
  return { status: flat.status, headers, body };
}
