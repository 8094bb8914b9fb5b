import { maskSettings } from '../../config/mask-secrets.js';
import { setOwn } from '../../internal/set-own.js';

/** The environment as the request panel's Server Parameters show it: sorted by name, secrets masked. */
export type ServerParameters = Readonly<Record<string, string>>;

/**
 * The reference's Server Parameters ($_SERVER's variables, listed with ksort()): the environment sorted by
 * name, secret-named variables masked and the passwords of URLs in the others (`DATABASE_URL`), frozen so
 * that every record can carry the same object.
 * @example snapshotServerParameters({ PORT: '8000', APP_SECRET: 'x' }) // { APP_SECRET: '******', PORT: '8000' }
 */
export function snapshotServerParameters(env: Record<string, string | undefined>): ServerParameters {
  const sorted: Record<string, string> = {};
  for (const name of Object.keys(env).sort()) {
    const value = env[name];
    if (value !== undefined) setOwn(sorted, name, value);
  }
  return Object.freeze(maskSettings(sorted));
}

let processSnapshot: ServerParameters | undefined;

/**
 * The process environment, snapshot once: it does not change from one request to the next, so copying,
 * sorting and masking it for each would be work thrown away. Taken on first use rather than when the
 * module loads, so that what the application's entry point sets before building the app is in it.
 */
export function processServerParameters(): ServerParameters {
  return (processSnapshot ??= snapshotServerParameters(process.env));
}
