import type { MatchContext } from './matcher.js';
import type { MatchInput } from './route-verdict.js';
import { withoutTrailingSlashes } from '../internal/trailing-slashes.js';

/** The request as every pass of one lookup tests it: all of MatchInput but the path. */
export type RequestFacts = Omit<MatchInput, 'path' | 'trimmedPath'>;

/** Whether any route of a table has a host requirement, and any a scheme requirement. */
export interface TableRequirements {
  host: boolean;
  scheme: boolean;
}

const ANY_REQUIREMENT: TableRequirements = { host: true, scheme: true };

/**
 * The request's method, host and scheme in the case the routes compare them, once per lookup. The host
 * and scheme are lower-cased only for a table with routes that compare them: lower-casing is a measurable
 * part of a lookup, and nothing else reads them.
 */
export function createRequestFacts(context: MatchContext, redirects: boolean, requirements = ANY_REQUIREMENT): RequestFacts {
  const method = upperCased(context.method);
  const canonicalMethod = method === 'HEAD' ? 'GET' : method;
  return {
    method,
    canonicalMethod,
    host: requirements.host ? context.host.toLowerCase() : context.host,
    scheme: requirements.scheme ? context.scheme.toLowerCase() : context.scheme,
    supportsRedirections: redirects && canonicalMethod === 'GET',
  };
}

/** What one pass tests: the request and one decoded path. */
export function withPath(decodedPath: string, request: RequestFacts): MatchInput {
  const path = decodedPath === '' ? '/' : decodedPath;
  const { method, canonicalMethod, host, scheme, supportsRedirections } = request;
  return { path, trimmedPath: trimTrailingSlashes(path), method, canonicalMethod, host, scheme, supportsRedirections };
}

export function createMatchInput(decodedPath: string, context: MatchContext, redirects: boolean): MatchInput {
  return withPath(decodedPath, createRequestFacts(context, redirects));
}

/** The path without its trailing slashes, `/` when nothing is left. */
export function trimTrailingSlashes(path: string): string {
  return withoutTrailingSlashes(path) || '/';
}

/** `text.toUpperCase()`, without its call for text already upper-case ASCII, as request methods nearly always are. */
function upperCased(text: string): string {
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if ((code >= 97 && code <= 122) || code > 127) return text.toUpperCase();
  }
  return text;
}
