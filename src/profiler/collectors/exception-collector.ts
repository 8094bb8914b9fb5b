import { createFlatError } from '../../errors/flat-error.js';
import type { StackFrame } from '../../errors/stack-frame.js';
import type { Collector } from './collector.js';
import { attached } from '../../internal/attached.js';
import { maskTextSecrets } from '../../config/mask-secrets.js';
import { freezeWithJson } from '../profile-json.js';

const EXCEPTION_DATA = Symbol('keel.profiler.exceptionData');

/** One link of the error chain, outermost first. */
export interface ExceptionLink {
  className: string;
  message: string;
  code: string | undefined;
  status: number;
  statusText: string;
  file: string;
  line: number;
  /** On the last link of a chain cut at its limit: how many earlier errors were left out. */
  omittedCauses?: number;
  trace: readonly StackFrame[];
}

export interface ExceptionData {
  /** Empty when the request did not fail. */
  chain: ExceptionLink[];
}

/**
 * The error the request failed with, flattened (Symfony's ExceptionDataCollector). The failed request
 * and its error sub-request report the same error: it is flattened (its stack parsed) once for both.
 * Secret query parameters quoted in messages are masked (the 404's `(from "…?token=…")`).
 */
export class ExceptionCollector implements Collector<ExceptionData> {
  readonly name = 'exception';

  collect(_request: unknown, _response: unknown, error: unknown): ExceptionData {
    if (error === undefined || error === null) return { chain: [] };
    if (typeof error !== 'object') return this.#flatten(error);
    return attached(error, EXCEPTION_DATA, () => this.#flatten(error));
  }

  // Frozen (FlatError's frames are immutable too), its JSON text made once for both records carrying it.
  #flatten(error: unknown): ExceptionData {
    const chain = createFlatError(error, { debug: true })
      .toArray()
      .map((flat) => Object.freeze({ className: flat.class, message: maskTextSecrets(flat.message), code: flat.code, status: flat.status, statusText: flat.statusText, file: flat.file, line: flat.line, omittedCauses: flat.omittedCauses || undefined, trace: flat.trace }));
    return freezeWithJson({ chain }, `{"chain":[${chain.map(linkJson).join(',')}]}`);
  }
}

// The frame lists of a code path are shared and frozen (see parseStack): their text, four fifths of an
// error's, is made once per list and lives as long as it, where each request's error wrote it again.
const traceTexts = new WeakMap<readonly StackFrame[], string>();

function linkJson(link: ExceptionLink): string {
  const { trace, ...fields } = link;
  let traceText = traceTexts.get(trace);
  if (traceText === undefined) {
    traceText = JSON.stringify(trace);
    if (Object.isFrozen(trace)) traceTexts.set(trace, traceText);
  }
  return `${JSON.stringify(fields).slice(0, -1)},"trace":${traceText}}`;
}

export function hasException(data: unknown): data is ExceptionData {
  return typeof data === 'object' && data !== null && ((data as ExceptionData).chain?.length ?? 0) > 0;
}
