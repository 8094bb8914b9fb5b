import type { RequestOrigin } from '../http/request.js';
import type { ResolvedOrigin } from './trusted-proxies.js';

/**
 * What is wrong with a request's origin, in the words of the exception Symfony's Request throws for it:
 * the origin guard's 400 says it, and the profiler's request panel says it beside the fallback origin
 * the request was answered with, which would otherwise read as what the proxy or the client sent.
 * @example originProblemMessage({ ...origin, problem: 'untrusted-host', problemDetail: 'evil.test' }) // 'Untrusted Host "evil.test".'
 */
export function originProblemMessage(origin: RequestOrigin): string | undefined {
  // A recorded origin keeps the detail the resolver gave it (see ResolvedOrigin).
  const { problem, problemDetail = '' } = origin as ResolvedOrigin;
  switch (problem) {
    case undefined:
      return undefined;
    case 'conflicting-forwarded-headers':
      return `The request has both a trusted "FORWARDED" header and a trusted "${problemDetail || 'X_FORWARDED_FOR'}" header, conflicting with each other. You should either configure your proxy to remove one of them, or configure your project to distrust the offending one.`;
    case 'untrusted-host':
      return `Untrusted Host "${problemDetail}".`;
    case 'invalid-host':
      return `Invalid Host "${problemDetail}".`;
  }
}
