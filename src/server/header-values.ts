import { rawurlencode } from '../internal/rawurlencode.js';

// RFC 9110 §5.5: a field value is visible ASCII, obs-text, space and tab. Anything else (CR, LF, NUL, other
// controls) would either be rejected by node:http with an exception or split the header, so it is
// percent-encoded: a value built from request data can never inject a header or crash the response.
const INVALID_FIELD_CHAR = /[^\t\x20-\x7e\x80-\xff]/;
// A surrogate pair is one character (an emoji), encoded whole: encodeURIComponent throws on either half
// alone. A lone surrogate (a request byte that was no UTF-8, see headerText) goes through rawurlencode.
const INVALID_FIELD_CHARS = /[\ud800-\udbff][\udc00-\udfff]|[^\t\x20-\x7e\x80-\xff]/g;

// Values found valid lately, ASCII only: most responses repeat the same few (types, Cache-Control, Date).
const VALID_VALUES_LIMIT = 256;
const validValues = new Set<string>();
const OBS_TEXT = /[\x80-\xff]/;

export function sanitizeHeaderValue(value: string): string {
  return validValues.has(value) ? value : sanitizeNewValue(value);
}

// A value not among validValues: cleaned, and remembered when it is plain ASCII.
function sanitizeNewValue(value: string): string {
  if (INVALID_FIELD_CHAR.test(value)) return value.replace(INVALID_FIELD_CHARS, (c) => rawurlencode(c));
  // Not remembered: validValues holds ASCII values only, which sanitizeHeaderValues() need not look into.
  if (OBS_TEXT.test(value)) return value;
  if (validValues.size >= VALID_VALUES_LIMIT) validValues.clear();
  validValues.add(value);
  return value;
}

/** Sanitizes a flat [name, value, …] list in place; true when a value holds obs-text (bytes 0x80–0xFF). */
export function sanitizeHeaderValues(raw: string[]): boolean {
  let obsText = false;
  for (let i = 1; i < raw.length; i += 2) {
    const value = raw[i]!;
    if (validValues.has(value)) continue;
    const clean = sanitizeNewValue(value);
    raw[i] = clean;
    // Remembered just now means ASCII: only the others need looking into.
    if (!obsText && !validValues.has(clean)) obsText = OBS_TEXT.test(clean);
  }
  return obsText;
}

/**
 * Takes the application's Connection and Keep-Alive lines out of a response's flat header list, and says
 * whether they asked to close. They are hop-by-hop (RFC 9110 §7.6.1), the server's to decide: given to
 * node, `Connection: keep-alive` made it keep a connection its client had asked to close (or a stop was
 * closing), until the keep-alive timeout. A `close` is honoured; node then writes the header itself.
 */
export function takeConnectionHeaders(raw: string[]): boolean {
  let close = false;
  for (let i = 0; i < raw.length; i += 2) {
    const name = raw[i]!;
    if (name.length !== 10) continue;
    const lower = name.toLowerCase();
    if (lower !== 'connection' && lower !== 'keep-alive') continue;
    if (lower === 'connection' && /(?:^|,)\s*close\s*(?:,|$)/i.test(raw[i + 1]!)) close = true;
    raw.splice(i, 2);
    i -= 2;
  }
  return close;
}
