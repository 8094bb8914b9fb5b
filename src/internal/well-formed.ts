const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;
const SURROGATE = /[\ud800-\udfff]/;

/**
 * The text with each lone UTF-16 surrogate (half of a pair, from a header's byte that is no UTF-8, see
 * header-text.ts, or from JSON's `"\ud800"`) replaced by U+FFFD, as String#toWellFormed() does (ES2024,
 * which keel's type-check does not assume). Text without surrogates is returned as it is, untouched.
 * @example wellFormed('\ud800.c') // '\ufffd.c'
 */
export function wellFormed(text: string): string {
  return SURROGATE.test(text) ? text.replace(LONE_SURROGATE, '\ufffd') : text;
}
