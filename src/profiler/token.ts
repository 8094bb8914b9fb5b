import { randomFillSync } from 'node:crypto';

/** Generates a candidate profile token; injected so tests can choose tokens. */
export type TokenGenerator = () => string;

// Symfony ≥ 7.2: bin2hex(random_bytes(3)), six lowercase hex characters.
const TOKEN = /^[0-9a-f]{6}$/;

/** `latest` names the newest record; anything else must be a well-formed token before it reaches a store. */
export const LATEST_TOKEN = 'latest';

export function isProfileToken(value: string): boolean {
  return TOKEN.test(value);
}

// Random bytes drawn 3 KiB at a time: one system call per 1 024 tokens instead of one (and a Buffer) each.
const pool = Buffer.alloc(3 * 1024);
let offset = pool.length;

export const generateRandomToken: TokenGenerator = () => {
  if (offset === pool.length) {
    randomFillSync(pool);
    offset = 0;
  }
  offset += 3;
  return pool.toString('hex', offset - 3, offset);
};
