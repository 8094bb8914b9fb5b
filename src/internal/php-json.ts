// Outside JSON strings there is neither `/` nor a non-ASCII character: both can be replaced in the whole text.
const PHP_ESCAPED = /[/\u0080-\uffff]/g;

/**
 * JSON as PHP's json_encode writes it with its default flags: `/` escaped as `\/`, and every character
 * beyond ASCII as `\uXXXX` (lower-case hex, a surrogate pair for astral characters).
 * @example encodeLikePhp({ url: 'https://café.test/' }) // '{"url":"https:\/\/caf\u00e9.test\/"}'
 */
export function encodeLikePhp(value: unknown): string {
  return JSON.stringify(value).replace(PHP_ESCAPED, (char) => (char === '/' ? '\\/' : `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`));
}
