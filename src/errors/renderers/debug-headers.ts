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
    ['X-Debug-Exception', rawurlencode(truncateUtf8(flat.message, MAX_MESSAGE_BYTES))],
    ['X-Debug-Exception-File', `${rawurlencode(flat.file)}:${flat.line}`],
  ];
}

// PHP's substr cuts bytes; cutting at a character boundary gives the same result for ASCII and never
// leaves half a character behind.
function truncateUtf8(text: string, maxBytes: number): string {
  const bytes = Buffer.from(text, 'utf8');
  if (bytes.length <= maxBytes) return text;
  let end = maxBytes;
  while (end > 0 && (bytes[end]! & 0xc0) === 0x80) end--;
  return bytes.subarray(0, end).toString('utf8');
}
