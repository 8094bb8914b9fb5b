import { memoizeBounded } from '../internal/bounded-map.js';

/** What a secret value is replaced with wherever keel shows data: profiler pages, `keel config`. */
export const MASK = '******';

// Names whose values are credentials: Authorization, Cookie, and anything about passwords, secrets, tokens, keys.
export const SECRET_NAME = /authorization|cookie|password|passwd|secret|token|key/i;

// The profiler's own headers name record tokens, which are no credential: every page links them.
const PUBLIC_NAMES = new Set(['x-debug-token', 'x-debug-token-link', 'x-previous-debug-token']);

// Every profiled request asks about the same few dozen header and setting names, twice per request (its
// record and the error sub-request's): a case-insensitive test each time was ~9 µs of a profiled 404.
export const isSecretName: (name: string) => boolean = memoizeBounded(1024, (name: string) => SECRET_NAME.test(name) && !PUBLIC_NAMES.has(name.toLowerCase()));

// `scheme://user:password@` or `scheme://:password@`: the password part, up to the last `@` of the authority.
const URL_PASSWORD = /^([a-z][a-z0-9+.-]*:\/\/[^:@/?#]*:)[^/?#]*@/i;

/**
 * A URL with the password of its userinfo replaced by `******`; anything else unchanged. A Redis URL
 * (`redis://:password@host:6379`) is a setting whose name says nothing of the secret it holds.
 * @example maskUrlPassword('redis://:s3cret@cache:6379/0') // 'redis://:******@cache:6379/0'
 */
export function maskUrlPassword(text: string): string {
  return text.replace(URL_PASSWORD, `$1${MASK}@`);
}

/**
 * A deep copy in which every scalar under a secret-looking key is replaced by `******` (objects under such
 * keys are walked, so their structure stays visible), and the password of any URL is masked. Cycles
 * print as `[circular]`.
 * @example maskSecrets({ APP_SECRET: 'x', PORT: '8000' }) // { APP_SECRET: '******', PORT: '8000' }
 */
export function maskSecrets<T>(value: T): T {
  return mask(value, false, new WeakSet()) as T;
}

function mask(value: unknown, secret: boolean, seen: WeakSet<object>): unknown {
  if (value === null || typeof value !== 'object') return secret && value !== undefined ? MASK : typeof value === 'string' ? maskUrlPassword(value) : value;
  if (seen.has(value)) return '[circular]';
  seen.add(value);
  if (Array.isArray(value)) return value.map((item) => mask(item, secret, seen));
  const out: Record<string, unknown> = {};
  for (const [key, item] of Object.entries(value)) out[key] = mask(item, secret || isSecretName(key), seen);
  return out;
}
