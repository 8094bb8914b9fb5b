// node:http hands header values over as latin1 strings, one character per byte.
// ignoreBOM: a leading U+FEFF the client sent is part of the text, not dropped as a decoder would.
const utf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });
const NON_ASCII = /[\x80-\xff]/;

/** The first character of the range that stands for bytes that are no UTF-8 (see headerText). */
export const ESCAPED_BYTE_BASE = 0xdc00;

/** A run of bytes headerText kept as U+DC80–U+DCFF, never the low half of a surrogate pair. */
export const KEPT_BYTES = /(?<![\ud800-\udbff])[\udc80-\udcff]+/g;

/**
 * Whether the text holds a byte that is no UTF-8, as headerText keeps it: text PHP's json_encode() refuses.
 * @example holdsKeptBytes(headerText('caf\u00e9')) // true
 */
export function holdsKeptBytes(text: string): boolean {
  KEPT_BYTES.lastIndex = 0;
  return KEPT_BYTES.test(text);
}

/**
 * A header value as the text its bytes spell: `café` sent in UTF-8 arrives from node:http as `cafÃ©` and
 * is read back as `café`, as the reference (which keeps the bytes) shows it in messages, logs and pages.
 * A byte that is no part of UTF-8 becomes a lone low surrogate, U+DC00 plus the byte (Python's
 * surrogateescape): the text keeps it apart from any character, rawurlencode writes the byte back
 * (`%FF`, as the reference's X-Debug-Exception has it), and a page or log line, encoded as UTF-8, shows
 * U+FFFD there, as the reference's escaped HTML does.
 * @example headerText('caf\u00c3\u00a9') // 'café'
 * @example headerText('caf\u00e9') // 'caf\udce9'
 */
export function headerText(value: string): string {
  if (!NON_ASCII.test(value)) return value;
  const bytes = Buffer.from(value, 'latin1');
  try {
    return utf8.decode(bytes);
  } catch {
    return escapedText(bytes);
  }
}

// The valid sequences decoded, each other byte escaped. Lengths and ranges of RFC 3629 §4: no overlong
// forms, no surrogates, nothing past U+10FFFF.
function escapedText(bytes: Buffer): string {
  let text = '';
  let i = 0;
  while (i < bytes.length) {
    const length = sequenceLength(bytes, i);
    if (length === 0) {
      text += String.fromCharCode(ESCAPED_BYTE_BASE + bytes[i]!);
      i++;
    } else {
      text += bytes.toString('utf8', i, i + length);
      i += length;
    }
  }
  return text;
}

// The length of the valid UTF-8 sequence at `i`, or 0 when the byte there starts none.
function sequenceLength(bytes: Buffer, i: number): number {
  const lead = bytes[i]!;
  if (lead < 0x80) return 1;
  const [length, low, high] = lead >= 0xc2 && lead <= 0xdf ? [2, 0x80, 0xbf] : lead === 0xe0 ? [3, 0xa0, 0xbf] : lead === 0xed ? [3, 0x80, 0x9f] : lead >= 0xe1 && lead <= 0xef ? [3, 0x80, 0xbf] : lead === 0xf0 ? [4, 0x90, 0xbf] : lead >= 0xf1 && lead <= 0xf3 ? [4, 0x80, 0xbf] : lead === 0xf4 ? [4, 0x80, 0x8f] : [0, 0, 0];
  if (length === 0 || i + length > bytes.length) return 0;
  const second = bytes[i + 1]!;
  if (second < low || second > high) return 0;
  for (let k = 2; k < length; k++) if ((bytes[i + k]! & 0xc0) !== 0x80) return 0;
  return length;
}
