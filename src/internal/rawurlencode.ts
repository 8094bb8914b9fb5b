// What encodeURIComponent leaves alone but RFC 3986 reserves.
const SUB_DELIMS = /[!'()*]/g;
// A surrogate without its other half: encodeURIComponent throws on it, UTF-8 encoding writes U+FFFD.
const LONE_SURROGATE = /([\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF])/;

/**
 * PHP's rawurlencode (RFC 3986): every byte of the UTF-8 encoding except `A-Z a-z 0-9 - _ . ~` becomes
 * `%XX` with upper-case hex. That is encodeURIComponent, plus `! ' ( ) *`, which it leaves alone and the
 * reference's X-Debug-Exception header values escape. A byte a header held that was no UTF-8, kept in the
 * text as U+DC80–U+DCFF (see headerText), is that byte again (`%FF`); any other lone surrogate is U+FFFD.
 * @example rawurlencode('a (b)') // 'a%20%28b%29'
 */
export function rawurlencode(value: string): string {
  let encoded: string;
  try {
    encoded = encodeURIComponent(value);
  } catch {
    // Odd parts are the lone surrogates (the pattern's one group).
    encoded = value
      .split(LONE_SURROGATE)
      .map((part, i) => (i % 2 === 0 ? encodeURIComponent(part) : loneSurrogate(part.charCodeAt(0))))
      .join('');
  }
  return encoded.replace(SUB_DELIMS, subDelim);
}

function loneSurrogate(code: number): string {
  return code >= 0xdc80 && code <= 0xdcff ? `%${(code - 0xdc00).toString(16).toUpperCase()}` : '%EF%BF%BD';
}

function subDelim(char: string): string {
  return `%${char.charCodeAt(0).toString(16).toUpperCase()}`;
}
