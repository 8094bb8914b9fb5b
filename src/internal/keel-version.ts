import { readFileSync } from 'node:fs';

/** keel's version, from its package.json ('unknown' if it cannot be read): the configuration panel and `keel --version` show it. */
export const KEEL_VERSION = readKeelVersion();

function readKeelVersion(): string {
  try {
    const manifest = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version?: unknown };
    return typeof manifest.version === 'string' ? manifest.version : 'unknown';
  } catch {
    return 'unknown';
  }
}
