import { HeaderNameSet } from '../http/header-lines.js';
import type { OriginResolver, Request, RequestOrigin } from '../http/request.js';
import { BoundedMap } from '../internal/bounded-map.js';

// Distinct origins remembered at most (forwarded headers are client data).
const MEMO_LIMIT = 1024;
// Inputs compared as they are before any key is built: the last few distinct ones.
const RECENT_LIMIT = 4;

interface Inputs {
  encrypted: boolean;
  remoteAddress: string;
  localHost: string;
  localPort: number | undefined;
  /** The Host and listed header lines, see Request.headerLines. */
  lines: readonly string[];
}

interface Remembered extends Inputs {
  origin: RequestOrigin;
}

/**
 * Wraps an origin resolver so that a request whose origin inputs (peer, TLS, the server's name and port, the Host
 * header and each of `headerNames`) were all seen before gets the same, frozen, origin. Behind a proxy
 * they repeat from request to request: the same scheme, host and port for everyone, the same client
 * address for each client's requests; resolving them was a quarter of a matched JSON route's kernel time.
 * The last few distinct inputs are compared line by line first: building and hashing a key of every
 * input was itself a tenth of that route's time in keel, and a busy proxy's next request mostly comes
 * from one of the clients just seen. `headerNames` must name every header the resolver reads besides Host.
 */
export function memoizeOrigins(resolve: OriginResolver, headerNames: readonly string[]): OriginResolver {
  const memo = new BoundedMap<string, RequestOrigin>(MEMO_LIMIT);
  const names = new HeaderNameSet(['host', ...headerNames]);
  const recent: Remembered[] = [];
  return (request: Request): RequestOrigin => {
    for (let i = 0; i < recent.length; i++) {
      const seen = recent[i]!;
      if (seen.encrypted === request.encrypted && seen.remoteAddress === request.remoteAddress && seen.localHost === request.localHost && seen.localPort === request.localPort && request.hasHeaderLines(names, seen.lines)) return seen.origin;
    }
    const inputs: Inputs = { encrypted: request.encrypted, remoteAddress: request.remoteAddress, localHost: request.localHost, localPort: request.localPort, lines: request.headerLines(names) };
    const key = keyOf(inputs);
    let origin = memo.get(key);
    if (origin === undefined) {
      origin = freeze(resolve(request));
      memo.set(key, origin);
    }
    if (recent.unshift({ ...inputs, origin }) > RECENT_LIMIT) recent.pop();
    return origin;
  };
}

// Each part length-prefixed, so that no value, whatever it holds, can read as two parts.
function keyOf({ encrypted, remoteAddress, localHost, localPort, lines }: Inputs): string {
  let key = `${encrypted ? 's' : 'p'}${part(remoteAddress)}${part(localHost)}${localPort ?? ''}:`;
  for (const line of lines) key += part(line);
  return key;
}

function part(value: string): string {
  return `${value.length}:${value}`;
}

/** Shared by every request with these inputs: nothing may change it. */
function freeze(origin: RequestOrigin): RequestOrigin {
  Object.freeze(origin.clientIps);
  Object.freeze(origin.sources);
  return Object.freeze(origin);
}
