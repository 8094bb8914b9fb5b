import { maskSecrets, maskTextSecrets } from '../config/mask-secrets.js';
import { errorFrames } from '../errors/stack-frame.js';
import { setOwn } from '../internal/set-own.js';

const MAX_DEPTH = 5;

/**
 * A log record's context as the profiler's logs panel and the debug page's Logs tab show it: JSON-safe
 * (see toStorable) and with secret-named keys masked, as everywhere else. With `traces`, an error directly
 * under a key (PSR-3's `exception`) keeps its stack frames as `trace`: an error the application caught and
 * only logged has no exception panel to say where it came from. They are added after masking, which would
 * copy them: the parsed list is shared by every error of one code path, frozen, and stored as it is.
 */
export function shownContext(context: Record<string, unknown>, { traces = false }: { traces?: boolean } = {}): Record<string, unknown> {
  const shown = maskSecrets(toStorable(context, 0)) as Record<string, unknown>;
  if (!traces) return shown;
  for (const [key, value] of Object.entries(context)) {
    const summary = shown[key];
    if (value instanceof Error && typeof summary === 'object' && summary !== null) (summary as Record<string, unknown>).trace = errorFrames(value);
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
  if (value instanceof Error) return { class: value.constructor.name, message: maskTextSecrets(String(value.message)) };
  if (depth >= MAX_DEPTH) return '[…]';
  if (Array.isArray(value)) return value.map((item) => toStorable(item, depth + 1));
  const out: Record<string, unknown> = {};
  for (const [key, inner] of Object.entries(value)) setOwn(out, key, toStorable(inner, depth + 1));
  return out;
}
