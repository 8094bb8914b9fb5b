import { holdsKeptBytes } from '../http/header-text.js';

// Outside JSON strings there is neither `/` nor a non-ASCII character: both can be replaced in the whole text.
const PHP_ESCAPED = /[/\u0080-\uffff]/g;

/** What PHP's json_encode() refuses to encode (Symfony's serializer throws NotEncodableValueException). */
export class NotEncodableValueError extends Error {}

/**
 * JSON as PHP's json_encode writes it with its default flags: `/` escaped as `\/`, and every character
 * beyond ASCII as `\uXXXX` (lower-case hex, a surrogate pair for astral characters).
 * Throws NotEncodableValueError where json_encode fails: for a string or key holding bytes that are no
 * UTF-8, as a header's are kept (see headerText), which PHP holds as they came and cannot encode.
 * @example encodeLikePhp({ url: 'https://café.test/' }) // '{"url":"https:\/\/caf\u00e9.test\/"}'
 */
export function encodeLikePhp(value: unknown): string {
  let malformed = false;
  const json = JSON.stringify(value, (key, member: unknown) => {
    malformed ||= holdsKeptBytes(key) || (typeof member === 'string' && holdsKeptBytes(member));
    return member;
  });
  if (malformed) throw new NotEncodableValueError('Malformed UTF-8 characters, possibly incorrectly encoded');
  return json.replace(PHP_ESCAPED, (char) => (char === '/' ? '\\/' : `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`));
}
