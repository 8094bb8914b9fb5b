import { isSecretName, MASK, maskSecrets, maskTextSecrets } from '../../config/mask-secrets.js';

/**
 * A copy with the values of secret-named entries masked, and secret query parameters quoted in the others
 * (a Referer's `?password=…`). Without a prototype, so that `__proto__` or `toString` are names like others.
 */
export function maskRecord<T>(values: Record<string, T>): Record<string, T | string> {
  const out = Object.create(null) as Record<string, T | string>;
  for (const [name, value] of Object.entries(values)) {
    if (value === undefined) out[name] = value;
    else if (isSecretName(name)) out[name] = MASK;
    // A string straight to maskTextSecrets (the common case, no walk to set up); a repeated query
    // parameter is a list, whose values maskSecrets() masks as single ones.
    else out[name] = typeof value === 'string' ? maskTextSecrets(value) : maskSecrets(value);
  }
  return out;
}

/**
 * Query or form parameters as a record, each masked as maskRecord() masks it; a repeated parameter is a
 * list of its values in order.
 */
export function maskParameters(parameters: URLSearchParams): Record<string, string | string[]> {
  const out = Object.create(null) as Record<string, string | string[]>;
  for (const [name, value] of parameters) {
    const existing = out[name];
    // Appended in place: a copy per repeat made `?a&a&a…` (8 000 times) cost ~100 ms.
    if (Array.isArray(existing)) existing.push(value);
    else out[name] = existing === undefined ? value : [existing, value];
  }
  return maskRecord(out) as Record<string, string | string[]>;
}
