import { decodeParamName, isSecretName, MASK, maskTextSecrets, SECRET_NAME } from '../../config/mask-secrets.js';

/**
 * A copy with the values of secret-named entries masked, and secret query parameters quoted in the others
 * (a Referer's `?password=…`). Without a prototype, so that `__proto__` or `toString` are names like others.
 */
export function maskRecord<T>(values: Record<string, T>): Record<string, T | string> {
  const out = Object.create(null) as Record<string, T | string>;
  for (const [name, value] of Object.entries(values)) {
    out[name] = value === undefined ? value : isSecretName(name) ? MASK : typeof value === 'string' ? maskSecretParams(value) : value;
  }
  return out;
}

/**
 * Masks the secrets of URLs quoted anywhere in a text (userinfo passwords, secret-named query parameters):
 * a log message or context value, an error message (the 404's `(from "…?token=…")`), a header holding a URL.
 * @example maskSecretParams('No route found for "GET /x?token=abc&page=2"') // 'No route found for "GET /x?token=******&page=2"'
 */
export const maskSecretParams = maskTextSecrets;

/** Masks the values of secret-named query parameters in a URL (`?password=…`), leaving the rest as sent. */
export function maskUrl(url: string): string {
  const q = url.indexOf('?');
  if (q === -1 || (!url.includes('%', q) && !SECRET_NAME.test(url.slice(q)))) return url;
  const masked = url
    .slice(q + 1)
    .split('&')
    .map((pair) => {
      const eq = pair.indexOf('=');
      if (eq === -1) return pair;
      return isSecretName(decodeParamName(pair.slice(0, eq))) ? `${pair.slice(0, eq)}=${MASK}` : pair;
    })
    .join('&');
  return `${url.slice(0, q)}?${masked}`;
}
