import type { OriginResolver, Request, RequestOrigin } from '../http/request.js';
import { BoundedMap } from '../internal/bounded-map.js';

// Distinct origins remembered at most (forwarded headers are client data).
const MEMO_LIMIT = 1024;

/**
 * Wraps an origin resolver so that a request whose origin inputs (peer, TLS, the server's name, the Host
 * header and each of `headerNames`) were all seen before gets the same, frozen, origin. Behind a proxy
 * they repeat from request to request: the same scheme, host and port for everyone, the same client
 * address for each client's requests; resolving them was a quarter of a matched JSON route's kernel time.
 * `headerNames` must name every header the resolver reads besides Host.
 */
export function memoizeOrigins(resolve: OriginResolver, headerNames: readonly string[]): OriginResolver {
  const memo = new BoundedMap<string, RequestOrigin>(MEMO_LIMIT);
  return (request: Request): RequestOrigin => {
    let key = `${request.encrypted ? 's' : 'p'}${part(request.remoteAddress)}${part(request.localHost)}${part(request.header('host'))}`;
    for (let i = 0; i < headerNames.length; i++) key += part(request.header(headerNames[i]!));
    let origin = memo.get(key);
    if (origin === undefined) {
      origin = freeze(resolve(request));
      memo.set(key, origin);
    }
    return origin;
  };
}

// Length-prefixed, so that no value, whatever it holds, can read as two parts or as an absent header.
function part(value: string | undefined): string {
  return value === undefined ? '-' : `${value.length}:${value}`;
}

/** Shared by every request with these inputs: nothing may change it. */
function freeze(origin: RequestOrigin): RequestOrigin {
  Object.freeze(origin.clientIps);
  Object.freeze(origin.sources);
  return Object.freeze(origin);
}
