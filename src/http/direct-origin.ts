import type { OriginResolver } from './request.js';
import { splitHostPort } from './request-target.js';

/**
 * The origin of a request built without proxy settings (in-process requests, tests): the connection's
 * scheme, the Host header's host and port, else the server's own name and port, and the TCP peer.
 */
export const directOrigin: OriginResolver = (request) => {
  const hostHeader = request.header('host') ?? '';
  const scheme = request.encrypted ? 'https' : 'http';
  const { host, port } = splitHostPort(hostHeader, scheme);
  return {
    scheme,
    host: host || request.localHost,
    port: host === '' ? (request.localPort ?? port) : port,
    clientIps: [request.remoteAddress],
    viaTrustedProxy: false,
    prefix: '',
    sources: { scheme: 'connection', host: 'Host header', port: 'Host header', clientIp: 'TCP peer' },
  };
};
