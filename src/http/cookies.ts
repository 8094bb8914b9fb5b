import { serialize, type SerializeOptions } from 'cookie';
import { rawurldecodeBytes } from '../internal/rawurldecode-bytes.js';
import { rawurlencode } from '../internal/rawurlencode.js';
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
 * unless `options` say otherwise. An invalid name or value throws here, in the controller.
 * @example setCookie(response, 'session', id, { secure: request.isSecure, maxAge: 3600 });
 */
export function setCookie(response: Response, name: string, value: string, options: CookieOptions = {}): void {
  response.headers.append('Set-Cookie', serialize(name, value, { ...DEFAULTS, ...options }));
}

/** Expires a cookie in the browser (Symfony's `clearCookie()`): empty, Max-Age=0, with the path it was set with. */
export function clearCookie(response: Response, name: string, options: Pick<CookieOptions, 'path' | 'domain' | 'secure' | 'sameSite' | 'httpOnly'> = {}): void {
  setCookie(response, name, '', { ...options, maxAge: 0, expires: new Date(0) });
}
