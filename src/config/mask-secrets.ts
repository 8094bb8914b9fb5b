const SECRET_KEY = /password|secret|token|key|authorization|cookie/i;
const MASK = '******';

/**
 * A deep copy with the values of secret-looking keys replaced by `******`, for showing configuration and
 * request data in the profiler and the CLI.
 * @example maskSecrets({ APP_SECRET: 'x', PORT: '8000' }) // { APP_SECRET: '******', PORT: '8000' }
 */
export function maskSecrets<T>(value: T): T {
  return mask(value, new WeakSet()) as T;
}

function mask(value: unknown, seen: WeakSet<object>): unknown {
  if (value === null || typeof value !== 'object') return value;
  if (seen.has(value)) return '[circular]';
  seen.add(value);
  if (Array.isArray(value)) return value.map((item) => mask(item, seen));
  const out: Record<string, unknown> = {};
  for (const [key, item] of Object.entries(value)) out[key] = SECRET_KEY.test(key) ? MASK : mask(item, seen);
  return out;
}
