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
