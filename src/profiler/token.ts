import { randomBytes } from 'node:crypto';

/** Generates a candidate profile token; injected so tests can choose tokens. */
export type TokenGenerator = () => string;

// Symfony ≥ 7.2: bin2hex(random_bytes(3)), six lowercase hex characters.
const TOKEN = /^[0-9a-f]{6}$/;

/** `latest` names the newest record; anything else must be a well-formed token before it reaches a store. */
export const LATEST_TOKEN = 'latest';

export function isProfileToken(value: string): boolean {
  return TOKEN.test(value);
}

export const generateRandomToken: TokenGenerator = () => randomBytes(3).toString('hex');
