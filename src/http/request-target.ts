// How a request's line and Host header are read: its path and query, its host and port.

const SLASH = 47;
// `scheme://authority`, then the path and query; the fragment, if any, is left out by the caller.
const ABSOLUTE_FORM = /^[A-Za-z][A-Za-z0-9+.-]*:\/\/[^/?#]*/;

/**
 * The path and query of a request target, as Symfony's prepareRequestUri keeps them: a fragment is
 * dropped (`/about#x` is `/about`), the absolute form a client sends to a proxy keeps only its path and
 * query (`GET https://app.example.test/about?x=1`), and anything else, such as `OPTIONS *`, gets a leading
 * slash (`/*`). The host still comes from the Host header, as there.
 */
export function pathAndQuery(target: string): string {
  const hash = target.indexOf('#');
  const head = hash === -1 ? target : target.slice(0, hash);
  if (head.charCodeAt(0) === SLASH) return head;
  const authority = ABSOLUTE_FORM.exec(head);
  const rest = authority === null ? head : head.slice(authority[0].length);
  return rest.charCodeAt(0) === SLASH ? rest : `/${rest}`;
}

/** Splits a Host header value into a lower-cased host and a port (the scheme's default when absent). */
export function splitHostPort(value: string, scheme: 'http' | 'https'): { host: string; port: number } {
  const defaultPort = scheme === 'https' ? 443 : 80;
  const trimmed = value.trim().toLowerCase();
  const bracket = trimmed.startsWith('[') ? trimmed.indexOf(']') : -1;
  const colon = trimmed.lastIndexOf(':');
  if (colon > bracket && colon !== -1) {
    const port = Number(trimmed.slice(colon + 1));
    return { host: trimmed.slice(0, colon), port: Number.isInteger(port) && port > 0 ? port : defaultPort };
  }
  return { host: trimmed, port: defaultPort };
}
