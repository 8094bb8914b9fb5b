import { maskSecrets, maskTextSecrets } from '../config/mask-secrets.js';
import { setOwn } from '../internal/set-own.js';

const MAX_DEPTH = 5;

/**
 * A log record's context as the profiler's logs panel and the debug page's Logs tab show it: JSON-safe
 * (see toStorable) and with secret-named keys masked, as everywhere else.
 */
export function shownContext(context: Record<string, unknown>): Record<string, unknown> {
  return maskSecrets(toStorable(context, 0)) as Record<string, unknown>;
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
