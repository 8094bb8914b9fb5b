import { memoizeBounded } from '../internal/bounded-map.js';
import { setOwn } from '../internal/set-own.js';

/** What a secret value is replaced with wherever keel shows data: profiler pages, `keel config`. */
export const MASK = '******';

// Names whose values are credentials: Authorization, Cookie, and anything about passwords, passphrases,
// secrets, tokens, keys, credentials, signatures; `PASS`, `PWD` and `AUTH` as words of a name (`DB_PASS`,
// `smtp-pwd`, `?auth=`), not inside one (`passthrough`, `author`).
export const SECRET_NAME = /authorization|cookie|password|passwd|passphrase|secret|token|key|credential|signature|(?:^|[_.-])(?:pass|pwd|auth)(?:$|[_.-])/i;

// Whether a text may hold a secret name at all: the words of SECRET_NAME, wherever they stand. Letters
// first in every branch: a branch that may start at any character (`auth` after a non-letter) made this
// test, run on every header value a profile records, twice as slow.
const SECRET_WORD = /auth|cookie|passw?d?|pwd|secret|token|key|credential|signature/i;
// The same for free text, where `author` must not count.
const SECRET_WORD_IN_TEXT = /authorization|cookie|passw?d?|pwd|secret|token|key|credential|signature|(?:^|[^a-z])auth(?![a-z])/i;

/** Whether a free text names anything that looks like a secret (`pass` anywhere counts): where masking cannot tell where the secret is. */
export function mayHoldSecret(text: string): boolean {
  return SECRET_WORD_IN_TEXT.test(text);
}

// The profiler's own headers name record tokens, which are no credential: every page links them.
const PUBLIC_NAMES = new Set(['x-debug-token', 'x-debug-token-link', 'x-previous-debug-token']);

// Every profiled request asks about the same few dozen header and setting names, twice per request (its
// record and the error sub-request's): a case-insensitive test each time was ~9 µs of a profiled 404.
export const isSecretName: (name: string) => boolean = memoizeBounded(1024, (name: string) => SECRET_NAME.test(name) && !PUBLIC_NAMES.has(name.toLowerCase()));

// `scheme://user:password@` or `scheme://:password@`: the password, up to the last `@` of the authority,
// anywhere in a text (a Referer quoted in a message), where the URL ends at a space or a quote. Found from
// its `//`, whatever comes before: a mistyped setting (`redis//:pw@host`) still holds a password. Matching
// an optional `scheme:` first cost a scan to the end of every run of letters from each of its letters, so
// a 15 kB query holding `@` and `//` took ~100 ms a call; the scheme is kept as it is either way.
const USERINFO_START = String.raw`(\/\/[^:@/?#\s"'<>]*:)`;
const URL_PASSWORD_IN_TEXT = new RegExp(String.raw`${USERINFO_START}[^/?#\s"'<>]*@`, 'g');
// A password holding an unencoded `/`, `?` or `#` (a generated base64 one: `//app:ab/cd@db`), told from
// a host and its port (`//host:8080/@scope`, `//[::1]/@x`: `[` is no userinfo character, RFC 3986 §3.2.1)
// by a non-digit before that character, as maskSettingSecrets tells it. It runs to the last `@` before the
// URL's end, a space or a quote (no email address after it is swallowed), or hides its host when a path
// after it holds an `@` too: more masked, nothing shown. The match takes the rest of the text up to that
// end, `@` or not, and the `@` is looked for in it: requiring it in the pattern scanned to that end again
// from each `//` of a text with no `@` after it (`//a:x//a:x…`, quadratic), where none of them can match.
const URL_CUT_PASSWORD_IN_TEXT = /(\/\/[^:@/?#[\s"'<>]*:)((?=\d*[^\d@/?#\s"'<>])[^@/?#\s"'<>]*[/?#][^\s"'<>]*)/g;
// `scheme://user@`, a userinfo without password: where Symfony's DSNs put an API key or a token
// (`sendgrid://KEY@default`, `slack://TOKEN@default`), and a URL a token (`https://ghp_…@github.com`).
const URL_USER_IN_TEXT = /(\/\/)[^:@/?#\s"'<>]+@/g;
// `?name=value` or `&name=value`. The value runs to the next `&` or `#`, or to a quote that closes the
// text quoting the URL (followed by a space, a bracket, a comma or the end): a space, a quote or a bracket
// inside a value (a Referer sent unencoded) must not leave the rest of a secret visible. A name without
// `=` is matched too (and left as it is): the search then goes on after it, where with `=` required it
// went on from the name's next `?`, and scanned the same name again from each (`?a?a?a…`, ~50 ms for 15 kB).
// A text may also start with a pair, a form body or a query quoted without its `?` (`password=x&user=a`
// in a JSON value): there the name is a plain one followed by `=`, so that a URL starting the text
// (`https://key.test/?page=1`) is not read as a name.
const QUERY_PAIR = /(^(?=[^=&#?/\s"'<>]+=)|[?&])([^=&#\s"'<>]+)(?:=((?:[^&#"']|["'](?![\s)\]},;]|$))*))?/g;

/**
 * A text with the secrets of the URLs it quotes masked: the password of their userinfo (or the user, when
 * it comes alone: a DSN's key) and the values of secret-named query parameters (a Referer's `?password=…`, a Redis URL's `?password=…`).
 * A password may hold an unencoded `/`, `?` or `#` (`//app:ab/cd@db`), but not only digits before it
 * (`//app:12/34@db` reads as a host's port), and a user alone may not (`sendgrid://SG.ab/cd@default` reads
 * as a host and a path holding an `@`, as `https://example.com/@foo` is): a text says no more, and both
 * are shown as they are, as maskSettingSecrets shows them.
 * @example maskTextSecrets('from "https://u:pw@x.test/?token=abc&page=2"') // 'from "https://u:******@x.test/?token=******&page=2"'
 */
export function maskTextSecrets(text: string): string {
  return maskText(text, true);
}

// The password of a refused URL up to its last `@`, `/`, `?` and `#` included (see maskSettingSecrets).
const SETTING_PASSWORD = new RegExp(String.raw`${USERINFO_START}[^\s"'<>]*@`);

// A setting that is a URL: its scheme and two slashes, or one (a typo).
const SETTING_URL = /^[a-z][a-z0-9+.-]*:\/{1,2}/i;
// An authority without userinfo: a host (a bracketed IPv6 address, or a name without `:`), a port if any.
const HOST_AND_PORT = /^(?:\[[^\]]*\]|[^:]*)(?::\d*)?$/;
// A setting that is a DSN: a scheme, then anything (`mysql:host=…`).
const SETTING_SCHEME = /^[a-z][a-z0-9+.-]*:/i;
// `;name=value` pairs of a PDO DSN (`mysql:host=db;user=app;password=…`), the first right after the scheme.
const DSN_PAIR = /(^[a-z][a-z0-9+.-]*:|;)([^=;]+)=([^;]*)/gi;

/**
 * A setting's value with its secrets masked as maskTextSecrets masks a text's, and more, since the whole
 * value is the URL or DSN rather than a text quoting one: the userinfo runs from the scheme to the `@`
 * before the host whatever it holds (`mysql://app:Pa"ss<w0rd>@db`, which a text would end at the quote),
 * after one slash too; the secret-named `;name=value` pairs of a PDO DSN are masked; and for a value
 * `refused` (a ConfigError's), a URL's password is taken to its last `@`: its `/`, `?` or `#` may be what
 * made it invalid (`redis://:pa/ss@host`), where a valid URL's path may hold an `@` (`/@scope/pkg`). So is
 * the password of any URL whose authority, cut at such a character, is no host[:port] (`app:pa/ss@db`).
 * @example maskSettingSecrets('redis://:pa/ss@host', { refused: true }) // 'redis://:******@host'
 */
export function maskSettingSecrets(value: string, { refused = false }: { refused?: boolean } = {}): string {
  let masked = value;
  const scheme = SETTING_URL.exec(masked);
  if (scheme !== null && masked.includes('@')) {
    const start = scheme[0].length;
    const authorityEnd = masked.slice(start).search(/[/?#]/);
    const end = authorityEnd === -1 ? masked.length : start + authorityEnd;
    let at = masked.lastIndexOf('@', end - 1);
    // No `@` before the first `/`, `?` or `#`, and no host[:port] either (`app:ab` of
    // `postgres://app:ab/cd@db`): a password holding one of them unencoded, as a generated base64 one does,
    // cut the authority short. Its userinfo runs to the last `@`, as a refused URL's does.
    if (at < start && !HOST_AND_PORT.test(masked.slice(start, end))) at = masked.lastIndexOf('@');
    if (at >= start) {
      const userinfo = masked.slice(start, at);
      const colon = userinfo.indexOf(':');
      masked = `${masked.slice(0, start)}${colon === -1 ? MASK : `${userinfo.slice(0, colon)}:${MASK}`}${masked.slice(at)}`;
    }
  }
  if (refused) masked = masked.replace(SETTING_PASSWORD, `$1${MASK}@`);
  if (masked.includes(';') && SETTING_SCHEME.test(masked)) masked = masked.replace(DSN_PAIR, (pair, before: string, name: string) => (isSecretName(name.trim()) ? `${before}${name}=${MASK}` : pair));
  return maskTextSecrets(masked);
}

// A URL inside a parameter's value (`?next=https%3A%2F%2Fu%3Apw%40h%2F`) is looked into once decoded, up
// to this many times encoded: each decoding reads the whole value again.
const MAX_ENCODED_DEPTH = 3;

function maskText(text: string, lookInside: boolean): string {
  let masked = text;
  if (masked.includes('@') && masked.includes('//')) {
    masked = masked.replace(URL_PASSWORD_IN_TEXT, `$1${MASK}@`).replace(URL_CUT_PASSWORD_IN_TEXT, maskCutPassword).replace(URL_USER_IN_TEXT, `$1${MASK}@`);
  }
  // A name may be percent-encoded (`pass%77ord`), so `%` reads on. Not SECRET_NAME on the whole text: its
  // `pass` must stand between `_`, `.` or `-`, and `?pass=` would have been let through unmasked.
  if (!masked.includes('=') || (!masked.includes('%') && !SECRET_WORD.test(masked))) return masked;
  return masked.replace(QUERY_PAIR, (pair, separator: string, name: string, value: string | undefined) => {
    if (value === undefined) return pair;
    // A value holding an encoded URL with a secret of its own is masked whole: re-encoded, a masked copy
    // could not be told from what the client sent.
    if (isSecretName(decodeComponent(name)) || (lookInside && value.includes('%') && holdsEncodedSecret(value))) return `${separator}${name}=${MASK}`;
    return pair;
  });
}

function maskCutPassword(url: string, userinfoStart: string, rest: string): string {
  const at = rest.lastIndexOf('@');
  return at === -1 ? url : `${userinfoStart}${MASK}${rest.slice(at)}`;
}

function holdsEncodedSecret(value: string): boolean {
  let inner = value;
  for (let level = 0; level < MAX_ENCODED_DEPTH; level++) {
    const decoded = decodeComponent(inner);
    if (decoded === inner) return false;
    if (maskText(decoded, false) !== decoded) return true;
    inner = decoded;
  }
  return false;
}

/** A query parameter's name or value as its application reads it (`pass%77ord` is `password`). */
function decodeComponent(text: string): string {
  try {
    return decodeURIComponent(text.replaceAll('+', ' '));
  } catch {
    return text;
  }
}

/**
 * A deep copy in which every scalar under a secret-looking key is replaced by `******` (objects under such
 * keys are walked, so their structure stays visible), and the secrets of any URL are masked (see
 * maskTextSecrets). Cycles print as `[circular]`.
 * @example maskSecrets({ APP_SECRET: 'x', PORT: '8000' }) // { APP_SECRET: '******', PORT: '8000' }
 */
export function maskSecrets<T>(value: T): T {
  return mask(value, false, new WeakSet(), maskTextSecrets) as T;
}

/**
 * maskSecrets() for settings, whose every string is a whole value (see maskSettingSecrets): the environment
 * the profiler and `keel config` show, the effective configuration.
 * @example maskSettings({ DATABASE_URL: 'mysql://app:Pa"ss@db/app' }) // { DATABASE_URL: 'mysql://app:******@db/app' }
 */
export function maskSettings<T>(value: T): T {
  return mask(value, false, new WeakSet(), maskSettingSecrets) as T;
}

function mask(value: unknown, secret: boolean, seen: WeakSet<object>, maskString: (text: string) => string): unknown {
  // An empty secret stays empty: masked, a setting left blank would look set.
  if (value === null || typeof value !== 'object') return secret && value !== undefined && value !== '' ? MASK : typeof value === 'string' ? maskString(value) : value;
  if (seen.has(value)) return '[circular]';
  seen.add(value);
  if (Array.isArray(value)) return value.map((item) => mask(item, secret, seen, maskString));
  const out: Record<string, unknown> = {};
  for (const [key, item] of Object.entries(value)) setOwn(out, key, mask(item, secret || isSecretName(key), seen, maskString));
  return out;
}
