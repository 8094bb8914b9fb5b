// node:http hands header values over as latin1 strings, one character per byte.
// ignoreBOM: a leading U+FEFF the client sent is part of the text, not dropped as a decoder would.
const utf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });
const NON_ASCII = /[\x80-\xff]/;

/**
 * A header value as the text its bytes spell: `café` sent in UTF-8 arrives from node:http as `cafÃ©` and
 * is read back as `café`, as the reference (which keeps the bytes) shows it in messages, logs and pages.
 * Bytes that are not UTF-8 are left as node read them.
 * @example headerText('caf\u00c3\u00a9') // 'café'
 */
export function headerText(value: string): string {
  if (!NON_ASCII.test(value)) return value;
  try {
    return utf8.decode(Buffer.from(value, 'latin1'));
  } catch {
    return value;
  }
}
