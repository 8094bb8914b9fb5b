import { maskSecrets, maskTextSecrets } from '../config/mask-secrets.js';
import { classNameOf, messageOf } from '../errors/flat-error.js';
import { errorFrames } from '../errors/stack-frame.js';
import { setOwn } from '../internal/set-own.js';
import { isError } from '../internal/is-error.js';
import { declaredForm, NO_FORM } from './normalize-context.js';

const MAX_DEPTH = 5;

/** Where a trace is said to be instead of stored: the error is the request's own, which the exception panel shows. */
export const TRACE_IN_EXCEPTION_PANEL = 'exception panel';

export interface ShownContextOptions {
  /** Errors directly under a key keep their stack frames as `trace` (see shownContext). */
  traces?: boolean;
  /** Errors whose trace another view shows already: their `trace` only says where (TRACE_IN_EXCEPTION_PANEL). */
  tracedElsewhere?: readonly unknown[];
}

/**
 * A log record's context as the profiler's logs panel and the debug page's Logs tab show it: JSON-safe
 * (see toStorable) and with secret-named keys masked, as everywhere else. With `traces`, an error directly
 * under a key (PSR-3's `exception`) keeps its stack frames as `trace`: an error the application caught and
 * only logged has no exception panel to say where it came from. They are added after masking, which would
 * copy them: the parsed list is shared by every error of one code path, frozen, and stored as it is. The
 * request's own error (the error listener's log line) is in the exception panel, frames and all: storing its
 * frames again would add a kilobyte to the record of every failed request.
 */
export function shownContext(context: Record<string, unknown>, { traces = false, tracedElsewhere = [] }: ShownContextOptions = {}): Record<string, unknown> {
  const shown = maskSecrets(toStorable(context, 0)) as Record<string, unknown>;
  if (!traces) return shown;
  for (const [key, value] of Object.entries(context)) {
    const summary = shown[key];
    if (!isError(value) || typeof summary !== 'object' || summary === null) continue;
    (summary as Record<string, unknown>)['trace'] = tracedElsewhere.includes(value) ? TRACE_IN_EXCEPTION_PANEL : errorFrames(value);
  }
  return shown;
}

/**
 * A JSON-safe copy: errors become `{ class, message }`, deep or cyclic structures are cut, and secret query
 * parameters quoted in strings are masked (the matched route's `request_uri`, a referer).
 */
function toStorable(value: unknown, depth: number): unknown {
  if (typeof value === 'string') return maskTextSecrets(value);
  if (value === null || typeof value !== 'object') {
    if (typeof value === 'bigint' || typeof value === 'symbol' || typeof value === 'function') return String(value);
    return value;
  }
  // Logged values are any: a getter or a Proxy trap that throws leaves that value unreadable, and the
  // record (and the debug page listing it) shown all the same.
  try {
    if (isError(value)) return { class: classNameOf(value), message: maskTextSecrets(messageOf(value)) };
    if (depth >= MAX_DEPTH) return '[…]';
    if (Array.isArray(value)) return value.map((item) => toStorable(item, depth + 1));
    // One level deeper, as an object's members are: a toJSON() giving another such object is cut in the end.
    const form = standIn(value);
    if (form !== value) return toStorable(form, depth + 1);
    const out: Record<string, unknown> = {};
    for (const [key, inner] of Object.entries(value)) setOwn(out, key, toStorable(inner, depth + 1));
    return out;
  } catch {
    return '[unreadable]';
  }
}

/**
 * What an object stands for when it is shown, where its own properties say nothing (a Date, a URL, a Map
 * have none, and were shown `{}`): a Map its entries, a Set its values, else its toJSON() (a Date's ISO
 * time, a URL's href) or its own string form (declaredForm(), the log file's reading of it). The object
 * itself when it is a plain one, or has no such form.
 */
function standIn(value: object): unknown {
  if (value instanceof Map) return Object.fromEntries([...value].map(([key, item]: [unknown, unknown]) => [String(key), item]));
  if (value instanceof Set) return [...value];
  const proto = Object.getPrototypeOf(value) as object | null;
  if (proto === null || proto === Object.prototype) return value;
  const form = declaredForm(value);
  return form === NO_FORM ? value : form;
}
