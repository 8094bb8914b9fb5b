import { serialize, type SerializeOptions } from 'cookie';
import { rawurldecodeBytes } from '../internal/rawurldecode-bytes.js';
import { rawurlencode } from '../internal/rawurlencode.js';
import { setOwn } from '../internal/set-own.js';
import { escapeControls } from '../logging/one-line.js';
import { cookiePairs } from './cookie-pairs.js';
import { headerText } from './header-text.js';
import type { Request } from './request.js';
import type { Response } from './response.js';

export type CookieOptions = SerializeOptions;

// Symfony's Cookie::create() defaults: the whole site, out of scripts' reach, not sent by other sites' forms;
// the value written with rawurlencode, as its Cookie writes it. encodeURIComponent, the package's own,
// threw on a lone surrogate: a request cookie's byte that was no UTF-8 (see headerText) set again failed
// every request of the browser that kept it; rawurlencode writes the byte back.
const DEFAULTS: CookieOptions = { path: '/', httpOnly: true, sameSite: 'lax', encode: rawurlencode };

/**
 * The request's cookies, values percent-decoded, as Symfony's `$request->cookies` (the first of a
 * repeated name wins, a pair without `=` is a cookie with an empty value: see cookiePairs). A value a
 * browser script set as it is (`document.cookie = 'city=Zürich'`) arrives as UTF-8 bytes and is read as
 * the text they spell, as the reference's bytes are. The record has no prototype, with or without a
 * Cookie header: `readCookies(request).constructor` is undefined.
 * @example const session = readCookies(request).session;
 */
export function readCookies(request: Request): Record<string, string | undefined> {
  const cookies = Object.create(null) as Record<string, string | undefined>;
  const header = request.header('cookie');
  if (header === undefined) return cookies;
  // Parsed as bytes (node's one character per byte), each value's escapes made bytes too, and only then read
  // as text: decodeURIComponent, the package's own, gave up on a whole value for one byte that is no UTF-8
  // (`caf%E9%20x` from a Latin-1 application stayed so, and setCookie wrote it back as `caf%25E9%2520x`),
  // where the reference has the bytes. Such a byte is kept apart as headerText keeps it, and so goes back as it came.
  for (const [name, value] of Object.entries(cookiePairs(header))) {
    const text = headerText(name);
    if (!(text in cookies)) cookies[text] = headerText(rawurldecodeBytes(value));
  }
  return cookies;
}


/**
 * Adds a `Set-Cookie` line, as `$response->headers->setCookie()`: path `/`, HttpOnly and SameSite=Lax
 * unless `options` say otherwise, and Secure when the request is secure unless `secure` is given (as
 * Symfony's Cookie::create(), applied when the main response is prepared). An invalid name or value
 * throws here, in the controller.
 * @example setCookie(response, 'session', id, { maxAge: 3600 });
 */
export function setCookie(response: Response, name: string, value: string, options: CookieOptions = {}): void {
  const merged = withDefaults(options);
  const line = serializeChecked(name, value, merged);
  response.headers.append('Set-Cookie', line);
  if (options.secure === undefined) {
    const holder = response as SecureDefaultsHolder;
    let lines = holder[SECURE_DEFAULTS];
    if (lines === undefined) Object.defineProperty(holder, SECURE_DEFAULTS, { value: (lines = new Map()) });
    lines.set(line, { name, value, options: merged });
  }
}

// An option given as undefined keeps its default: spread as they were, `{ path: settings.cookiePath }` with
// no path configured dropped Path (the cookie then scoped to the request's directory, where clearCookie at
// `/` does not reach it) and `{ httpOnly: flag }` with no flag dropped HttpOnly. An empty path is `/`, as
// Symfony's Cookie makes it.
function withDefaults(options: CookieOptions): CookieOptions {
  const merged: Record<string, unknown> = { ...DEFAULTS };
  for (const [key, value] of Object.entries(options)) if (value !== undefined) setOwn(merged, key, value);
  if (merged['path'] === '') merged['path'] = '/';
  return merged as CookieOptions;
}

// Printable ASCII but `=`, `;`, `,` and the space: what PHP's setcookie() refuses in a name (as Symfony's
// Cookie does for a raw one), and the package's token check beyond them (controls, anything past ASCII).
const NAME = /^[\u0021-\u002b\u002d-\u003a\u003c\u003e-\u007e]+$/;

// Refusals that say which cookie and what is wrong with it, the name or value quoted with its control
// characters escaped: the package's own (`argument name is invalid: a`, a line break after it) named
// neither the cookie nor the rule.
function serializeChecked(name: string, value: string, options: CookieOptions): string {
  if (name === '') throw new TypeError('The cookie name cannot be empty.');
  if (!NAME.test(name)) {
    throw new TypeError(`The cookie name "${escapeControls(name)}" contains invalid characters: a cookie name is printable ASCII without spaces, "=", ";" or ",".`);
  }
  checkPrefix(name, options);
  try {
    return serialize(name, value, options);
  } catch (error) {
    throw new TypeError(`The cookie "${name}" cannot be set: ${escapeControls((error as Error).message)}.`, { cause: error });
  }
}

// RFC 6265bis §4.1.3: a browser drops, without a word, a `__Secure-` cookie that is not Secure and a
// `__Host-` cookie that is not Secure, has a Domain or a Path other than `/` (the prefixes matched in any
// case). Said here instead when the options ask for that; `secure` left unset is Secure on HTTPS.
function checkPrefix(name: string, { secure, domain, path }: CookieOptions): void {
  const prefix = /^__(host|secure)-/i.exec(name)?.[1]?.toLowerCase();
  if (prefix === undefined) return;
  const host = prefix === 'host';
  const problem = secure === false ? 'with `secure: false`' : host && domain ? 'with a domain' : host && path !== '/' ? `with the path "${escapeControls(String(path))}"` : undefined;
  if (problem === undefined) return;
  const rule = host ? 'a __Host- cookie only Secure, with Path=/ and no Domain' : 'a __Secure- cookie only Secure';
  throw new TypeError(`The cookie "${name}" cannot be set ${problem}: a browser keeps ${rule}.`);
}

// Each line set without a `secure` option, with what writes it again Secure if the request is secure: Symfony's
// Cookie left at `secure: null`, which Response::prepare() turns Secure for a request over HTTPS (a TLS
// proxy's trusted X-Forwarded-Proto included), so a session cookie set on an HTTPS site never travels over HTTP.
// Kept on the response itself, not in a WeakMap keyed by it: V8 (Node 20) promotes each young key of a
// WeakMap to the old generation (see attached.ts); and written Secure only for a secure request.
const SECURE_DEFAULTS = Symbol('keel.secureCookieDefaults');

interface SecureDefaultsHolder {
  [SECURE_DEFAULTS]?: Map<string, { name: string; value: string; options: CookieOptions }>;
}

/**
 * Makes Secure the cookies set on the response without a `secure` option, as Response::prepare() does for
 * a secure request; an explicit `secure: false` stays.
 */
export function secureCookieDefaults(response: Response): void {
  const lines = (response as SecureDefaultsHolder)[SECURE_DEFAULTS];
  if (lines === undefined) return;
  const all = response.headers.all('set-cookie');
  const secure = (line: string): string => {
    const set = lines.get(line);
    return set === undefined ? line : serialize(set.name, set.value, { ...set.options, secure: true });
  };
  // Set, not deleted and appended: the header keeps its place among the others.
  if (all.some((line) => lines.has(line))) response.headers.set('Set-Cookie', all.map(secure));
}

/**
 * Expires a cookie in the browser (Symfony's `clearCookie()`): empty, Max-Age=0, with the path and domain
 * it was set with, and `partitioned` for a cookie set Partitioned, which a browser keeps apart per top-level
 * site and deletes only when told so.
 */
export function clearCookie(response: Response, name: string, options: Pick<CookieOptions, 'path' | 'domain' | 'secure' | 'sameSite' | 'httpOnly' | 'partitioned'> = {}): void {
  setCookie(response, name, '', { ...options, maxAge: 0, expires: new Date(0) });
}
