import { rawurlencode } from '../../internal/rawurlencode.js';
import type { FlatError } from '../flat-error.js';

const MAX_MESSAGE_BYTES = 2000;

/**
 * `X-Debug-Exception` and `X-Debug-Exception-File`, as Symfony's error renderers set them in debug:
 * rawurlencode of the first 2000 bytes of the message, and of the absolute file plus `:` and the line.
 * Percent-encoding also makes any CR/LF in a message harmless in a header.
 * @example debugExceptionHeaders(flat) // [['X-Debug-Exception', 'No%20route…'], ['X-Debug-Exception-File', '%2Fapp%2F…:12']]
 */
export function debugExceptionHeaders(flat: FlatError): [string, string][] {
  return [
    ['X-Debug-Exception', encodeFirstBytes(flat.message, MAX_MESSAGE_BYTES)],
    ['X-Debug-Exception-File', `${rawurlencode(flat.file)}:${flat.line}`],
  ];
}

// rawurlencode(substr($message, 0, 2000)): PHP cuts bytes, so a character cut in two leaves its first
// bytes, percent-encoded (`…%C3`), as the reference's header ends.
function encodeFirstBytes(text: string, maxBytes: number): string {
  if (text.length * 3 <= maxBytes) return rawurlencode(text);
  const bytes = Buffer.from(text, 'utf8');
  if (bytes.length <= maxBytes) return rawurlencode(text);
  let whole = maxBytes;
  while (whole > 0 && (bytes[whole]! & 0xc0) === 0x80) whole--;
  let encoded = rawurlencode(bytes.subarray(0, whole).toString('utf8'));
  for (let i = whole; i < maxBytes; i++) encoded += `%${bytes[i]!.toString(16).toUpperCase().padStart(2, '0')}`;
  return encoded;
}
