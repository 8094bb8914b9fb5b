import type { Socket } from 'node:net';

/**
 * Ends a connection with a reset, not a close. A close leaves the bytes in the kernel, which goes on offering
 * them for minutes to a client that reads nothing; and it reads, to a client framing the body by the close
 * (HTTP/1.0, which nginx speaks to its upstreams by default), as the end of a complete body. A reset is
 * seen as a failure by both. Only TCP has one (not a unix socket, not TLS): those are closed.
 */
export function resetConnection(socket: Socket | null): void {
  if (socket === null || socket.destroyed) return;
  try {
    socket.resetAndDestroy();
  } catch {
    socket.destroy();
  }
}
