/** Replaces secret values in the profiler's pages: every record is readable by anyone who can reach /_profiler. */
export const MASK = '******';

// Names whose values are credentials: Authorization, Cookie, and anything about passwords, secrets, tokens, keys.
const SECRET_NAME = /authorization|cookie|password|passwd|secret|token|key/i;

// The profiler's own headers name record tokens, which are no credential: every page links them.
const PUBLIC_NAMES = new Set(['x-debug-token', 'x-debug-token-link', 'x-previous-debug-token']);

export function isSecretName(name: string): boolean {
  return SECRET_NAME.test(name) && !PUBLIC_NAMES.has(name.toLowerCase());
}

export function maskRecord<T>(values: Record<string, T>): Record<string, T | string> {
  const out: Record<string, T | string> = {};
  for (const [name, value] of Object.entries(values)) out[name] = value !== undefined && isSecretName(name) ? MASK : value;
  return out;
}

/** Masks secret-named keys at any depth (configuration objects). */
export function maskDeep(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(maskDeep);
  if (typeof value !== 'object' || value === null) return value;
  const out: Record<string, unknown> = {};
  for (const [name, inner] of Object.entries(value)) out[name] = isSecretName(name) && typeof inner !== 'object' ? MASK : maskDeep(inner);
  return out;
}

/** Masks the values of secret-named query parameters in a URL (`?password=…`), leaving the rest as sent. */
export function maskUrl(url: string): string {
  const q = url.indexOf('?');
  if (q === -1 || !SECRET_NAME.test(url.slice(q))) return url;
  const masked = url
    .slice(q + 1)
    .split('&')
    .map((pair) => {
      const eq = pair.indexOf('=');
      if (eq === -1) return pair;
      let name = pair.slice(0, eq);
      try {
        name = decodeURIComponent(name.replaceAll('+', ' '));
      } catch {
        // keep the raw name
      }
      return isSecretName(name) ? `${pair.slice(0, eq)}=${MASK}` : pair;
    })
    .join('&');
  return `${url.slice(0, q)}?${masked}`;
}
