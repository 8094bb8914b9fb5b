import type { Request } from './request.js';

/** Where the request really came from, after trusted-proxy resolution (see proxy/trusted-proxies.ts). */
export interface RequestOrigin {
  scheme: 'http' | 'https';
  /** Lower-cased host name, without the port. */
  host: string;
  port: number;
  /** Client addresses, nearest first (right-most untrusted first), as Symfony's getClientIps(). */
  clientIps: string[];
  /** True when the TCP peer is a trusted proxy and forwarded headers were read. */
  viaTrustedProxy: boolean;
  /** X-Forwarded-Prefix, when trusted: prepended to generated URLs. */
  prefix: string;
  /** Which header each value came from, for the profiler's request panel. */
  sources: { scheme: string; host: string; port: string; clientIp: string };
  /**
   * Set when the forwarded headers or the host cannot be trusted; the values above are then a safe
   * fallback (the peer's own view, host `localhost`) and the origin guard answers 400.
   */
  problem?: 'conflicting-forwarded-headers' | 'untrusted-host' | 'invalid-host';
}

export type OriginResolver = (request: Request) => RequestOrigin;
