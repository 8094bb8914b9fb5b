// What encodeURIComponent leaves alone but RFC 3986 reserves.
const SUB_DELIMS = /[!'()*]/g;
// A surrogate without its other half: encodeURIComponent throws on it, UTF-8 encoding writes U+FFFD.
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

/**
 * PHP's rawurlencode (RFC 3986): every byte of the UTF-8 encoding except `A-Z a-z 0-9 - _ . ~` becomes
 * `%XX` with upper-case hex. That is encodeURIComponent, plus `! ' ( ) *`, which it leaves alone and the
 * reference's X-Debug-Exception header values escape.
 * @example rawurlencode('a (b)') // 'a%20%28b%29'
 */
export function rawurlencode(value: string): string {
  let encoded: string;
  try {
    encoded = encodeURIComponent(value);
  } catch {
    encoded = encodeURIComponent(value.replace(LONE_SURROGATE, '\uFFFD'));
  }
  return encoded.replace(SUB_DELIMS, subDelim);
}

function subDelim(char: string): string {
  return `%${char.charCodeAt(0).toString(16).toUpperCase()}`;
}
