/**
 * The request of the reference scenario: what an HTTPS reverse proxy (Traefik-style header set) forwards
 * for a crawler's `GET /robots.txt`. Tests send it from a trusted peer (127.0.0.1).
 */
export const SEED_HEADERS: [string, string][] = [
  ['accept', 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8'],
  ['accept-encoding', 'gzip, deflate, br'],
  ['host', 'app.example.test'],
  ['user-agent', 'Mozilla/5.0 (compatible; ExampleBot/2.1; +https://example.test/bot)'],
  ['x-forwarded-for', '203.0.113.7'],
  ['x-forwarded-host', 'app.example.test'],
  ['x-forwarded-port', '443'],
  ['x-forwarded-proto', 'https'],
  ['x-forwarded-server', 'proxy-1'],
  ['x-real-ip', '203.0.113.7'],
];

export const SEED_BASE_URL = 'https://app.example.test';

/** The seed headers with some replaced or added (names compared case-insensitively). */
export function seedHeaders(overrides: Record<string, string | null> = {}): [string, string][] {
  const lower = Object.fromEntries(Object.entries(overrides).map(([k, v]) => [k.toLowerCase(), v]));
  const out: [string, string][] = [];
  for (const [name, value] of SEED_HEADERS) {
    if (name in lower) {
      const replacement = lower[name];
      if (replacement !== null && replacement !== undefined) out.push([name, replacement]);
      delete lower[name];
    } else out.push([name, value]);
  }
  for (const [name, value] of Object.entries(lower)) if (value !== null) out.push([name, value]);
  return out;
}
