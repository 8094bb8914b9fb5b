import { errorFrames } from '../errors/stack-frame.js';
import { causesOf, messageOf } from '../errors/flat-error.js';
import { setOwn } from '../internal/set-own.js';
import { isError } from '../internal/is-error.js';
import { wellFormed } from '../internal/well-formed.js';

// Monolog's NormalizerFormatter limits: deeper or longer structures are cut with a note.
const MAX_DEPTH = 9;
const MAX_ITEMS = 1000;
// Values normalised for one record at most: an object a few others refer to, each of them to it again,
// is written once per path to it, and ten levels of eight such references are 8⁹ copies.
const MAX_VALUES = 10_000;

// What one normalisation walks: the objects on the path to the current value (a value met again there is
// a cycle), and how many more values it may write.
interface Walk {
  path: object[];
  budget: number;
}

/**
 * Turns a log context into JSON-safe data the way Monolog's LineFormatter does: errors become one string
 * with their cause chain, dates ISO strings to the second, class instances `{ ClassName: props }`.
 * @example normalizeContext({ exception: new RangeError('x') }) // { exception: '[object] (RangeError(code: 0): x at /app/a.ts:3)' }
 */
export function normalizeContext(context: Record<string, unknown>): Record<string, unknown> {
  // Monolog normalises the whole record: the record is level 0, its context level 1. (A context keyed
  // 0, 1, 2 … comes back as a list, which only JSON.stringify reads.)
  return normalize(context, 1, { path: [], budget: MAX_VALUES }) as Record<string, unknown>;
}

function normalize(value: unknown, depth: number, walk: Walk): unknown {
  if (depth > MAX_DEPTH) return `Over ${MAX_DEPTH} levels deep, aborting normalization`;
  if (typeof value === 'string') return wellFormed(value);
  if (value === null || typeof value === 'boolean') return value;
  // JSON has no NaN or infinity: Monolog writes them as the strings "NaN", "INF" and "-INF".
  if (typeof value === 'number') return Number.isFinite(value) ? value : Number.isNaN(value) ? 'NaN' : value > 0 ? 'INF' : '-INF';
  if (typeof value === 'bigint') return value.toString();
  if (value === undefined) return null;
  if (typeof value === 'function') return `[function ${value.name || 'anonymous'}]`;
  if (typeof value === 'symbol') return value.toString();
  if (isError(value)) return wellFormed(formatErrorChain(value, depth));
  // NormalizerFormatter's date format, `Y-m-d\TH:i:sP`: seconds, no fraction (here in UTC).
  if (value instanceof Date) return Number.isNaN(value.getTime()) ? 'Invalid Date' : `${value.toISOString().slice(0, 19)}+00:00`;
  if (walk.path.includes(value as object)) return '[circular]';
  walk.path.push(value as object);
  try {
    return normalizeObject(value as object, depth, walk);
  } catch (error) {
    // A value whose reading throws (an own getter, a Proxy trap) is written as such, its siblings as they
    // are: PHP reads properties without running code, so one odd value never cost Monolog the whole
    // context. The context itself unreadable is the record's to say (see formatMonologLine).
    if (depth <= 1) throw error;
    return `[unreadable: ${messageOf(error)}]`;
  } finally {
    walk.path.pop();
  }
}

function normalizeObject(value: object, depth: number, walk: Walk): unknown {
  if (Array.isArray(value)) return normalizeEntries(value.entries(), value.length, depth, true, walk);
  if (value instanceof Map) return normalizeEntries(value.entries(), value.size, depth, false, walk);
  const proto = Object.getPrototypeOf(value) as object | null;
  if (proto === null || proto === Object.prototype) {
    const entries = Object.entries(value);
    return normalizeEntries(entries.values(), entries.length, depth, false, walk);
  }
  const name = (value as { constructor?: { name?: string } }).constructor?.name || 'Object';
  // Monolog's order for an object: its JsonSerializable form, its __toString, its properties. A Set's
  // values stand for its properties, which it has none of.
  const converted = ownForm(value);
  if (converted !== NO_FORM) return { [name]: normalize(converted, depth + 1, walk) };
  if (value instanceof Set) return { [name]: normalizeEntries(value.entries(), value.size, depth + 1, true, walk) };
  const entries = Object.entries(value);
  return { [name]: normalizeEntries(entries.values(), entries.length, depth + 1, false, walk) };
}

/** What declaredForm() gives for an object that says nothing of what it stands for. */
export const NO_FORM = Symbol('keel.log.noForm');

/**
 * What an object says it stands for: its toJSON(), else its own string form (see ownString); NO_FORM if
 * neither. A toJSON() that throws throws here.
 */
export function declaredForm(value: object): unknown {
  const { toJSON } = value as { toJSON?: unknown };
  return typeof toJSON === 'function' ? (toJSON as () => unknown).call(value) : (ownString(value) ?? NO_FORM);
}

// declaredForm(), NO_FORM too when the conversion throws: the properties are written, as for an object without one.
function ownForm(value: object): unknown {
  try {
    return declaredForm(value);
  } catch {
    return NO_FORM;
  }
}

/**
 * An object's string form of its own, as PHP casts an object with __toString (a URL's href); undefined
 * when it has none but Object's, or when its toString throws.
 */
export function ownString(value: object): string | undefined {
  const { toString } = value as { toString?: unknown };
  if (typeof toString !== 'function' || toString === Object.prototype.toString) return undefined;
  try {
    return String((toString as () => unknown).call(value));
  } catch {
    return undefined;
  }
}

// Strings are written well-formed (see wellFormed): a lone surrogate becomes U+FFFD, as Monolog's
// JSON_INVALID_UTF8_SUBSTITUTE writes it; escaped as `\udcff`, it made the line's JSON unreadable to PHP
// and to any strict parser.

function normalizeEntries(entries: Iterable<[unknown, unknown]>, size: number, depth: number, list: boolean, walk: Walk): unknown {
  // Past the limit Monolog adds a "..." key: a list cut short is written as an object keyed by index.
  const cut = size > MAX_ITEMS;
  const out: unknown[] | Record<string, unknown> = list && !cut ? [] : {};
  let count = 0;
  // Whether the keys of a map so far are 0, 1, 2 …: such a PHP array is a list, and so is an empty one
  // (a list kept whole is one already, and needs no look at its keys).
  let sequential = !cut && !Array.isArray(out);
  for (const [key, item] of entries) {
    if (count++ >= MAX_ITEMS) {
      (out as Record<string, unknown>)['...'] = `Over ${MAX_ITEMS} items (${size} total), aborting normalization`;
      break;
    }
    if (--walk.budget < 0) {
      // A list cut here is still a list: the note goes as its last item.
      if (Array.isArray(out)) out.push(`Over ${MAX_VALUES} values, aborting normalization`);
      else setOwn(out, '...', `Over ${MAX_VALUES} values, aborting normalization`);
      break;
    }
    const normalized = normalize(item, depth + 1, walk);
    if (Array.isArray(out)) out.push(normalized);
    else setOwn(out, wellFormed(String(key)), normalized);
    sequential &&= String(key) === String(count - 1);
  }
  return sequential ? Object.values(out) : out;
}

/**
 * Monolog's LineFormatter::normalizeException():
 * `[object] (Class(code: 0): message at file:line)` and one `\n[previous exception] [object] (…)` per cause
 * (and per error an AggregateError aggregates, which Monolog never meets).
 * Each cause is one level deeper than the error, which is at `depth` in the record.
 */
export function formatErrorChain(error: Error, depth: number): string {
  let text = formatError(error);
  const seen = new Set<unknown>([error]);
  // The errors still to write, the next last: an AggregateError's errors follow its cause, as on the error page.
  const pending = [...causesOf(error)].reverse();
  for (let level = depth + 1; pending.length > 0; ) {
    const cause = pending.pop();
    if (cause === undefined || cause === null || seen.has(cause)) continue;
    if (level > MAX_DEPTH) {
      // A backslash and an "n", not a line break: Monolog writes this one in single quotes.
      text += `\\n[previous exception] Over ${MAX_DEPTH} levels deep, aborting normalization`;
      break;
    }
    seen.add(cause);
    text += `\n[previous exception] ${isError(cause) ? formatError(cause) : `[object] (${typeof cause}(code: 0): ${messageOf(cause)} at :0)`}`;
    level++;
    const ahead = causesOf(cause);
    for (let i = ahead.length - 1; i >= 0; i--) pending.push(ahead[i]);
  }
  return text;
}

function formatError(error: Error): string {
  // Read as the error page reads them: a getter that throws (constructor, code) must not lose the whole context.
  const name = readOr(() => error.constructor?.name, undefined) || 'Error';
  const code = readOr(() => (error as { code?: unknown }).code, undefined);
  const frame = errorFrames(error, 1)[0];
  return `[object] (${name}(code: ${typeof code === 'number' ? code : 0}): ${messageOf(error)} at ${frame?.file ?? ''}:${frame?.line ?? 0})`;
}

function readOr<T>(read: () => T, fallback: T): T {
  try {
    return read();
  } catch {
    return fallback;
  }
}
