import { isSecretName, MASK, SECRET_NAME } from '../../config/mask-secrets.js';

export function maskRecord<T>(values: Record<string, T>): Record<string, T | string> {
  const out: Record<string, T | string> = {};
  for (const [name, value] of Object.entries(values)) out[name] = value !== undefined && isSecretName(name) ? MASK : value;
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
