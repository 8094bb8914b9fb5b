/**
 * The name=value pairs of a Cookie header as PHP reads them into `$_COOKIE`: split at `;` alone (a `,`
 * belongs to the value), a pair without `=` is a name with an empty value, a pair with no name is dropped,
 * and the first of a repeated name wins (the browser sends the cookie of the most specific path first).
 * Spaces and tabs around names and values are dropped, as RFC 6265 §5.4 has a browser write them; values
 * are left encoded.
 * @example cookiePairs('a=1; flag; a=2') // { a: '1', flag: '' }
 */
export function cookiePairs(header: string): Record<string, string> {
  const pairs = Object.create(null) as Record<string, string>;
  for (const part of header.split(';')) {
    const eq = part.indexOf('=');
    const name = trimOws(eq === -1 ? part : part.slice(0, eq));
    if (name === '' || name in pairs) continue;
    pairs[name] = eq === -1 ? '' : trimOws(part.slice(eq + 1));
  }
  return pairs;
}

// Only space and tab: String#trim() also drops U+00A0, which is byte 0xA0 of a header node hands over
// one character per byte, the last byte of a UTF-8 `à` (C3 A0).
function trimOws(text: string): string {
  return text.replace(/^[ \t]+|[ \t]+$/g, '');
}
