import { headerText } from '../http/header-text.js';

/** A host and its optional port, as read from `Host`, `X-Forwarded-Host` or `Forwarded: host=`. */
export interface Authority {
  /** Lower-cased; an IPv6 literal keeps its brackets so that it can be put back into a URL. */
  host: string;
  port: number | undefined;
}

// Symfony accepts [a-zA-Z0-9-:\]_] labels (RFC 952 / RFC 2181 plus `_`); keel is stricter about `:` and
// brackets, which may appear only in an IPv6 literal, so that a host can never break a URL or a header.
// Symfony removes every `label.?` and wants nothing left: labels joined by single dots, one trailing dot
// allowed. Written as `(label.?)*`, the pattern backtracked exponentially on a value that fails at its end
// (`aaaa…a!`: 30 characters held the event loop for seconds), since a run of letters splits into labels
// in every way; here each dot starts a new label, so there is one way to read a host.
const NAME = /^(?:[a-z0-9_-]+(?:\.[a-z0-9_-]+)*\.?)?$/;
const IPV6_LITERAL = /^\[[0-9a-f:.]+\]$/;

/**
 * Splits and validates `host[:port]`; undefined when the value is not a valid host (the caller answers
 * `Invalid Host "<value>".`).
 * @example parseAuthority('App.Example.test:8443') // { host: 'app.example.test', port: 8443 }
 */
export function parseAuthority(value: string): Authority | undefined {
  const text = value.trim().toLowerCase();
  const close = text.startsWith('[') ? text.indexOf(']') : -1;
  const colon = text.lastIndexOf(':');
  let host = text;
  let port: number | undefined;
  if (colon > close && (close !== -1 || text.indexOf(':') === colon)) {
    // RFC 3986's port is *DIGIT: `host:` names no port, and the scheme's default applies.
    const digits = text.slice(colon + 1);
    if (!/^\d{0,5}$/.test(digits) || Number(digits) > 65_535) return undefined;
    host = text.slice(0, colon);
    port = digits === '' ? undefined : Number(digits);
  }
  if (!(NAME.test(host) || IPV6_LITERAL.test(host)) || !isUrlHost(host)) return undefined;
  return { host, port };
}

// What the patterns let through but a URL cannot hold: a name ending in a number that is no IPv4 address
// (`1.2.3.4.5`, `a.1`), an IPv6 literal that is no address (`[.]`, `[::1::2]`). Written into a redirect's
// Location or a link, it broke the URL, and making an absolute URL of it threw (a 500).
function isUrlHost(host: string): boolean {
  // No host at all (HTTP/1.0 without Host) is the server's own name, not a URL's.
  return host === '' || URL.canParse(`http://${host}`);
}

/**
 * A refused host as the reference names it in `Invalid Host "<host>".`: trimmed, without a trailing
 * `:port` (unless the port is what is refused), ASCII letters lower-cased, its bytes read as UTF-8.
 * node:http lets no control character into a header value, and the message is escaped wherever it is shown.
 * @example describeHost(' Bad Host:8080 ') // 'bad host'
 * @example describeHost('App.test:99999') // 'app.test:99999'
 */
export function describeHost(value: string): string {
  const given = value.trim();
  const withoutPort = given.replace(/:\d+$/, '');
  // The reference drops any run of digits, so its own refusals are always the name's. keel alone refuses a
  // port past 65535 (`a.test:99999`): there the name is fine, and the message names the value as sent.
  const named = parseAuthority(withoutPort) === undefined ? withoutPort : given;
  return headerText(named.replace(/[A-Z]+/g, (letters) => letters.toLowerCase()));
}
