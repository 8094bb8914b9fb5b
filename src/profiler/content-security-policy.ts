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

const UNSAFE_INLINE = "'unsafe-inline'";

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
 * them (a missing directive is first copied from `default-src`; a lone `'none'` gives way to them), so that the
 * toolbar, carrying the nonce, is allowed where the page's own inline content stays refused. Answers the
 * nonces, or undefined when the response has no policy to change.
 * @example addProfilerNonces(headers) // `default-src 'self'` → `default-src 'self'; script-src 'self' 'unsafe-inline' 'nonce-…'; style-src …`
 */
export function addProfilerNonces(headers: HeaderBag): ProfilerNonces | undefined {
  let nonces: ProfilerNonces | undefined;
  const nonceOf = (kind: keyof ProfilerNonces) => (nonces ??= { script: generateNonce(), style: generateNonce() })[kind];
  for (const name of CSP_HEADERS) {
    const value = headers.get(name);
    if (value === undefined) continue;
    // A comma separates policies that are each enforced (CSP 3 §2.2.2): each one must let the toolbar through,
    // and none may gain another's directives, as it did when the list was read as a single policy.
    const policies = value.split(',');
    const updated = policies.map((policy) => withNonces(policy, nonceOf));
    if (updated.some((policy) => policy !== undefined)) headers.set(name, updated.map((policy, i) => policy ?? policies[i]!.trim()).join(', '));
  }
  return nonces;
}

// One policy with the nonces in its script and style directives, or undefined when it needs none.
function withNonces(policy: string, nonceOf: (kind: keyof ProfilerNonces) => string): string | undefined {
  const directives = parseDirectives(policy);
  let changed = false;
  for (const [directive, kind] of NONCE_DIRECTIVES) {
    if (authorizesInline(directives, directive)) continue;
    let sources = sourcesOf(directives, directive);
    if (sources === undefined) {
      const fallback = fallbackOf(directives, directive);
      if (fallback === undefined) continue;
      sources = [...fallback];
      directives.push({ name: directive, sources });
    }
    // 'none' is only valid alone (CSP 3 §2.3.1): next to the nonce, browsers ignore it and report the policy
    // as faulty on every page, where the nonce alone already says the same.
    if (sources.length === 1 && isKeyword(sources[0]!, "'none'")) sources.length = 0;
    if (!sources.some((source) => isKeyword(source, UNSAFE_INLINE))) sources.push(UNSAFE_INLINE);
    sources.push(`'nonce-${nonceOf(kind)}'`);
    changed = true;
  }
  return changed ? directives.map(({ name, sources }) => [name, ...sources].join(' ')).join('; ') : undefined;
}

interface Directive {
  /** As the policy spells it: directive names are case-insensitive (CSP 3 §2.2.1), and kept as written. */
  name: string;
  sources: string[];
}

// As a browser parses a policy (CSP 3 §2.2.1): directives split on `;`, names and sources on any ASCII
// whitespace, empty directives skipped. The reference splits on single spaces and matches names as written,
// so `STYLE-SRC` or a tab after the name went unseen, and the directive it added after it was the one that
// browsers ignore.
function parseDirectives(value: string): Directive[] {
  const directives: Directive[] = [];
  for (const directive of value.split(';')) {
    const [name, ...sources] = directive.split(/[\t\n\f\r ]+/).filter((token) => token !== '');
    if (name !== undefined) directives.push({ name, sources });
  }
  return directives;
}

// The first directive of that name, the one browsers obey: they ignore a repeated one.
function sourcesOf(directives: Directive[], name: string): string[] | undefined {
  return directives.find((directive) => directive.name.toLowerCase() === name)?.sources;
}

function authorizesInline(directives: Directive[], directive: string): boolean {
  const sources = sourcesOf(directives, directive) ?? fallbackOf(directives, directive);
  return sources !== undefined && sources.some((source) => isKeyword(source, UNSAFE_INLINE)) && !sources.some(isHashOrNonce);
}

// The `-elem` directives are left to the browser's own fallback; the others fall back on default-src.
function fallbackOf(directives: Directive[], directive: string): string[] | undefined {
  return directive.endsWith('-elem') ? undefined : sourcesOf(directives, 'default-src');
}

// Keywords, like every token of the policy's grammar, are case-insensitive: 'UNSAFE-INLINE' allows inline content.
function isKeyword(source: string, keyword: string): boolean {
  return source.toLowerCase() === keyword;
}

function isHashOrNonce(source: string): boolean {
  const lower = source.toLowerCase();
  return lower.endsWith("'") && (lower.startsWith("'nonce-") || lower.startsWith("'sha256-") || lower.startsWith("'sha384-") || lower.startsWith("'sha512-"));
}

// Symfony's NonceGenerator: 16 random bytes, hex.
function generateNonce(): string {
  return randomBytes(16).toString('hex');
}
