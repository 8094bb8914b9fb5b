const UNRESERVED = /[A-Za-z0-9\-_.~]/;

/**
 * PHP's rawurlencode (RFC 3986): every byte of the UTF-8 encoding except `A-Z a-z 0-9 - _ . ~` becomes
 * `%XX` with upper-case hex. Unlike encodeURIComponent it also escapes `! ' ( ) *`, which the reference's
 * X-Debug-Exception header values rely on.
 * @example rawurlencode('a (b)') // 'a%20%28b%29'
 */
export function rawurlencode(value: string): string {
  let out = '';
  for (const byte of Buffer.from(value, 'utf8')) {
    const char = String.fromCharCode(byte);
    out += byte < 0x80 && UNRESERVED.test(char) ? char : `%${byte.toString(16).toUpperCase().padStart(2, '0')}`;
  }
  return out;
}
