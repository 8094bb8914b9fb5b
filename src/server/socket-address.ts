import type { Socket } from 'node:net';

const LOCAL_HOST = Symbol('keel.localHost');
type HostedSocket = Socket & { [LOCAL_HOST]?: string };

/**
 * The host of URLs for a request that names none (HTTP/1.0 without Host), as the reference's SERVER_ADDR:
 * the address the connection came in on, an IPv6 one in brackets; worked out once per connection, not for
 * each request on it.
 */
export function localHostOf(socket: Socket): string {
  const hosted = socket as HostedSocket;
  let host = hosted[LOCAL_HOST];
  if (host === undefined) {
    const local = socket.localAddress === undefined ? undefined : normaliseAddress(socket.localAddress);
    host = hosted[LOCAL_HOST] = local === undefined ? 'localhost' : local.includes(':') ? `[${local}]` : local;
  }
  return host;
}

/**
 * `::ffff:127.0.0.1` (an IPv4 peer on a dual-stack socket) is reported as `127.0.0.1`. A peer node cannot
 * name (a unix socket's, or a TCP peer gone before it was asked) is the empty string: an address no
 * trusted-proxy range matches. Taken for 127.0.0.1, it had made any such client a trusted proxy under
 * `loopback`, free to choose its IP, host and scheme with forwarded headers.
 */
export function normaliseAddress(address: string | undefined): string {
  if (address === undefined) return '';
  return address.startsWith('::ffff:') && address.includes('.') ? address.slice(7) : address;
}
