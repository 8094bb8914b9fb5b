import { splitOutsideQuotes, unquote } from '../internal/split-outside-quotes.js';

/** Cache-Control directives by lower-case name: a directive's value, or true for one without. */
export type CacheDirectives = Map<string, string | true>;

// RFC 9110 §5.6.2's token, as HeaderUtils::quote() tests it.
const TOKEN = /^[a-z0-9!#$%&'*.^_`|~-]+$/i;

/**
 * Reads a Cache-Control value as Symfony's ResponseHeaderBag does (HeaderUtils::split() and combine()): a
 * comma inside a quoted value is part of it (`private="Set-Cookie, X-Token"` is one directive), a value is
 * kept unquoted, and of a directive given twice the last value wins.
 * @example parseCacheControl('private="Set-Cookie, X-Token", max-age=5') // Map { 'private' => 'Set-Cookie, X-Token', 'max-age' => '5' }
 */
export function parseCacheControl(value: string): CacheDirectives {
  const directives: CacheDirectives = new Map();
  for (const part of splitOutsideQuotes(value, ',')) {
    const eq = part.indexOf('=');
    if (eq === -1) directives.set(unquote(part).toLowerCase(), true);
    else directives.set(unquote(part.slice(0, eq).trim()).toLowerCase(), unquote(part.slice(eq + 1).trim()));
  }
  return directives;
}

/**
 * The directives in name order, as Symfony's getCacheControlHeader() writes them: a value that is no token
 * quoted again, so that a list of field names stays one directive.
 * @example writeCacheControl(new Map([['private', 'Set-Cookie, X-Token'], ['max-age', '5']])) // 'max-age=5, private="Set-Cookie, X-Token"'
 */
export function writeCacheControl(directives: CacheDirectives): string {
  return [...directives.keys()]
    .sort()
    .map((name) => {
      const value = directives.get(name)!;
      return value === true ? name : `${name}=${quote(value)}`;
    })
    .join(', ');
}

function quote(value: string): string {
  return TOKEN.test(value) ? value : `"${value.replace(/["\\]/g, '\\$&')}"`;
}
