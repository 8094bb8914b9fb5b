import { isSecretName, MASK, SECRET_NAME } from '../../config/mask-secrets.js';

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

// `?name=value` or `&name=value` where it stands in a text; in a message, a URL ends at a quote or a space.
const QUERY_PAIR = /([?&])([^=&#\s"'<>]+)=([^&#\s"'<>]*)/g;

/**
 * Masks the values of secret-named query parameters quoted anywhere in a text: a log message or context
 * value, an error message (the 404's `(from "…?token=…")`), a header holding a URL.
 * @example maskSecretParams('No route found for "GET /x?token=abc&page=2"') // 'No route found for "GET /x?token=******&page=2"'
 */
export function maskSecretParams(text: string): string {
  // Quick outs for the common case; a name may be percent-encoded (`pass%77ord`), so `%` reads on.
  if (!text.includes('=') || (!text.includes('%') && !SECRET_NAME.test(text))) return text;
  return text.replace(QUERY_PAIR, (pair, separator: string, name: string) => (isSecretName(decodeName(name)) ? `${separator}${name}=${MASK}` : pair));
}

function decodeName(name: string): string {
  try {
    return decodeURIComponent(name.replaceAll('+', ' '));
  } catch {
    return name;
  }
}

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
      return isSecretName(decodeName(pair.slice(0, eq))) ? `${pair.slice(0, eq)}=${MASK}` : pair;
    })
    .join('&');
  return `${url.slice(0, q)}?${masked}`;
}
