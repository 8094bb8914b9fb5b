import { ESCAPED_BYTE_BASE, KEPT_BYTES } from '../http/header-text.js';

/**
 * The text with its bytes that are no UTF-8 replaced by U+FFFD as PHP's `htmlspecialchars()` with
 * ENT_SUBSTITUTE replaces them, which the reference's error page and profiler escape with: one U+FFFD per
 * ill-formed sequence PHP reads, not one per byte. `\xE9\xFF` (a lead byte, then a byte that is neither a
 * lead nor a continuation) is one, where encoding each kept byte on its own wrote two. Other lone
 * surrogates are left for the UTF-8 encoder, which writes U+FFFD for each.
 * @example substituteLikePhp('\udce9\udcff') // '\ufffd'
 */
export function substituteLikePhp(text: string): string {
  if (!/[\udc80-\udcff]/.test(text)) return text;
  return text.replace(KEPT_BYTES, (run) => {
    const bytes = Array.from(run, (char) => char.charCodeAt(0) - ESCAPED_BYTE_BASE);
    let replaced = '';
    for (let i = 0; i < bytes.length; i += failureLength(bytes, i)) replaced += '\ufffd';
    return replaced;
  });
}

const isLead = (byte: number | undefined): boolean => byte === undefined || byte < 0x80 || (byte >= 0xc2 && byte <= 0xf4);
const isTrail = (byte: number | undefined): boolean => byte !== undefined && byte >= 0x80 && byte <= 0xbf;

// How many bytes PHP's get_next_char() (ext/standard/html.c) takes as one ill-formed sequence at `i`: a
// lead byte takes the continuation bytes after it up to the first byte that could start a character. The
// run is followed by a character or by the end of the text, which stops a sequence as a lead byte does
// (undefined counts as one). A run holds no well-formed sequence: the header's decoding took those.
function failureLength(bytes: number[], i: number): number {
  const lead = bytes[i]!;
  const length = lead >= 0xc2 && lead <= 0xdf ? 2 : lead >= 0xe0 && lead <= 0xef ? 3 : lead >= 0xf0 && lead <= 0xf4 ? 4 : 1;
  let taken = 1;
  // Overlong forms, surrogates and code points past U+10FFFF come whole: PHP reads their bytes, then refuses them.
  if (length > 1 && bytes.slice(i + 1, i + length).length === length - 1 && bytes.slice(i + 1, i + length).every(isTrail)) return length;
  while (taken < length && !isLead(bytes[i + taken])) taken++;
  return taken;
}
