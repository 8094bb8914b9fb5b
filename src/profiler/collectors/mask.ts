import { isSecretName, MASK, maskTextSecrets } from '../../config/mask-secrets.js';

/**
 * A copy with the values of secret-named entries masked, and secret query parameters quoted in the others
 * (a Referer's `?password=…`). Without a prototype, so that `__proto__` or `toString` are names like others.
 */
export function maskRecord<T>(values: Record<string, T>): Record<string, T | string> {
  const out = Object.create(null) as Record<string, T | string>;
  for (const [name, value] of Object.entries(values)) {
    out[name] = value === undefined ? value : isSecretName(name) ? MASK : (maskQuoted(value) as T);
  }
  return out;
}

// A repeated query parameter is a list: each of its values is masked as a single one is.
function maskQuoted(value: unknown): unknown {
  if (typeof value === 'string') return maskTextSecrets(value);
  return Array.isArray(value) ? value.map((item) => (typeof item === 'string' ? maskTextSecrets(item) : item)) : value;
}
