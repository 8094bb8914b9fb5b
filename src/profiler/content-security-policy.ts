import { randomBytes } from 'node:crypto';
import type { HeaderBag } from '../http/header-bag.js';

declare module '../http/request.js' {
  interface RequestAttributes {
    /** Set by the profiler's pages whose markup no application policy knows of: their CSP headers are removed. */
    cspDisabled?: boolean;
  }
}

const CSP_HEADERS = ['Content-Security-Policy', 'Content-Security-Policy-Report-Only', 'X-Content-Security-Policy'] as const;
// The directives the toolbar's markup falls under, and which of the two nonces each takes.
const NONCE_DIRECTIVES = [
  ['script-src', 'script'],
  ['script-src-elem', 'script'],
  ['style-src', 'style'],
  ['style-src-elem', 'style'],
] as const;

export interface ProfilerNonces {
  script: string;
  style: string;
}

/** The profiler's own pages, as the reference's disableCsp(): none of the application's policies apply. */
export function removeCspHeaders(headers: HeaderBag): void {
  for (const name of CSP_HEADERS) headers.delete(name);
}

/**
 * Symfony's ContentSecurityPolicyHandler::updateResponseHeaders(), for the response of a main request: each
 * CSP header whose script or style directives forbid inline content gets `'unsafe-inline'` and a nonce in
 * them (a missing directive is first copied from `default-src`, without a lone `'none'`), so that the
 * toolbar, carrying the nonce, is allowed where the page's own inline content stays refused. Answers the
 * nonces, or undefined when the response has no policy to change.
 * @example addProfilerNonces(headers) // `default-src 'self'` → `default-src 'self'; script-src 'self' 'unsafe-inline' 'nonce-…'; style-src …`
 */
export function addProfilerNonces(headers: HeaderBag): ProfilerNonces | undefined {
  let nonces: ProfilerNonces | undefined;
  for (const name of CSP_HEADERS) {
    const value = headers.get(name);
    if (value === undefined) continue;
    const directives = parseDirectives(value);
    let changed = false;
    for (const [directive, kind] of NONCE_DIRECTIVES) {
      if (authorizesInline(directives, directive)) continue;
      let sources = directives.get(directive);
      if (sources === undefined) {
        const fallback = fallbackOf(directives, directive);
        if (fallback === undefined) continue;
        // 'none' is only valid alone: copied next to a nonce it would be an error.
        sources = fallback.length === 1 && fallback[0] === "'none'" ? [] : [...fallback];
        directives.set(directive, sources);
      }
      nonces ??= { script: generateNonce(), style: generateNonce() };
      if (!sources.includes("'unsafe-inline'")) sources.push("'unsafe-inline'");
      sources.push(`'nonce-${nonces[kind]}'`);
      changed = true;
    }
    if (changed) headers.set(name, [...directives].map(([directive, sources]) => `${directive} ${sources.join(' ')}`).join('; '));
  }
  return nonces;
}

// As the reference splits a policy: on `;`, then on single spaces (an empty directive keeps its place).
function parseDirectives(value: string): Map<string, string[]> {
  const directives = new Map<string, string[]>();
  for (const directive of value.split(';')) {
    const [name = '', ...sources] = directive.trim().split(' ');
    directives.set(name, sources);
  }
  return directives;
}

function authorizesInline(directives: Map<string, string[]>, directive: string): boolean {
  const sources = directives.get(directive) ?? fallbackOf(directives, directive);
  return sources !== undefined && sources.includes("'unsafe-inline'") && !sources.some(isHashOrNonce);
}

// The `-elem` directives are left to the browser's own fallback; the others fall back on default-src.
function fallbackOf(directives: Map<string, string[]>, directive: string): string[] | undefined {
  return directive.endsWith('-elem') ? undefined : directives.get('default-src');
}

function isHashOrNonce(source: string): boolean {
  return source.endsWith("'") && (source.startsWith("'nonce-") || source.startsWith("'sha256-") || source.startsWith("'sha384-") || source.startsWith("'sha512-"));
}

// Symfony's NonceGenerator: 16 random bytes, hex.
function generateNonce(): string {
  return randomBytes(16).toString('hex');
}
