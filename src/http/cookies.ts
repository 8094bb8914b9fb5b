import { parse, serialize, type SerializeOptions } from 'cookie';
import { headerText } from './header-text.js';
import type { Request } from './request.js';
import type { Response } from './response.js';

export type CookieOptions = SerializeOptions;

// Symfony's Cookie::create() defaults: the whole site, out of scripts' reach, not sent by other sites' forms.
const DEFAULTS: CookieOptions = { path: '/', httpOnly: true, sameSite: 'lax' };

/**
 * The request's cookies, values percent-decoded, as Symfony's `$request->cookies` (the first of a
 * repeated name wins). A value a browser script set as it is (`document.cookie = 'city=Zürich'`) arrives
 * as UTF-8 bytes and is read as the text they spell, as the reference's bytes are. The record has no
 * prototype, with or without a Cookie header: `readCookies(request).constructor` is undefined.
 * @example const session = readCookies(request).session;
 */
export function readCookies(request: Request): Record<string, string | undefined> {
  const header = request.header('cookie');
  return header === undefined ? Object.create(null) : parse(headerText(header));
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
