/**
 * Whether a `redis://` or `rediss://` URL is one the Redis client can connect with, as the client reads it:
 * a host, a numeric port if any, a database given as a number (`/3`, or `?db=3`), credentials whose
 * percent-escapes decode. Checked when the settings are read, so that a typo is an error at start: the
 * client itself only fails at its first command (`/abc` becomes `SELECT NaN`, an unhandled error that ends
 * the process), or never connects and leaves the app running without its storage.
 * @example isRedisUrl('redis://:secret@cache:6379/2') // true
 */
export function isRedisUrl(text: string): boolean {
  if (!/^rediss?:\/\/./i.test(text)) return false;
  let url: URL;
  try {
    // The WHATWG parser, as the client's: it refuses a port that is not a number or out of range.
    url = new URL(text);
    decodeURIComponent(url.username);
    decodeURIComponent(url.password);
  } catch {
    return false;
  }
  if (url.hostname === '') return false;
  if (url.pathname !== '' && url.pathname !== '/' && !/^\/\d+$/.test(url.pathname)) return false;
  if (optionNames(url).length > 0) return false;
  const db = url.searchParams.get('db');
  return db === null || /^\d+$/.test(db);
}

/**
 * The query parameters of a Redis URL other than `db`, the one keel documents. The client reads every
 * other one as a client option, a string, over the options keel gives it: `?enableOfflineQueue=false`
 * turned the offline queue on ("false" is truthy) and `?commandTimeout=…` replaced the storage's deadline.
 * @example findRedisUrlOptions('redis://cache?db=2&commandTimeout=5000') // ['commandTimeout']
 */
export function findRedisUrlOptions(text: string): string[] {
  // Read as the client reads the query, by the WHATWG parser: a `?` in a password that makes the URL
  // unparseable is no query, and its text (part of the password) is never listed.
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return [];
  }
  return optionNames(url);
}

function optionNames(url: URL): string[] {
  return [...new Set([...url.searchParams.keys()].filter((name) => name !== 'db'))];
}

/**
 * The URL with its scheme in lower case, the rest untouched. A scheme is case-insensitive (RFC 3986 §3.1)
 * and isRedisUrl takes `REDISS://` as a Redis URL, but the client turns TLS on only for a URL that starts
 * with `rediss://` exactly (it connected in clear text, the password sent with it), and the profiler
 * tells its Redis storage from the file storage by the same lower-case prefix.
 * @example lowerRedisScheme('REDISS://:secret@cache:6380') // 'rediss://:secret@cache:6380'
 */
export function lowerRedisScheme(url: string): string {
  return url.replace(/^rediss?:/i, (scheme) => scheme.toLowerCase());
}
