import type { ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import type { Request } from '../http/request.js';
import { resetConnection } from './reset-connection.js';

/** Told of a response cut for its send timeout, before its connection is closed. */
export type SendTimeoutHandler = (request: Request, timeout: number) => void;

/**
 * Closes the connection once the socket has taken nothing more of the response for `timeout` ms (nginx's
 * send_timeout): progress is what the kernel has accepted, the bytes written less those still waiting in
 * node. A response with nothing waiting (server-sent events between two events) is idle, not late, and stays
 * open. A timer of its own, not the socket's inactivity timeout, which node uses for keep-alive too and
 * which, left set, would cut the next response of the connection. A stream's source is then let go of as
 * for a client gone (see sendStream). The watch stops once the response is over, finished or closed: a timer
 * left to find it closed would hold the response, its socket, request and stream for the whole timeout, and
 * clients leaving a stream at once piled up as many as they could open meanwhile. A response's close stops
 * it, except for a `streamed` one, whose caller calls the function returned when its stream settles (on
 * close at the latest): such a response has close listeners enough (node's, pipeline's, request.signal's)
 * for one more to pass the ten node warns about.
 */
export function watchSending(res: ServerResponse, request: Request, timeout: number, onTimeout: SendTimeoutHandler | undefined, streamed: boolean): () => void {
  let sent = sentBytes(res.socket);
  const timer = setTimeout(() => {
    // Over (sent whole, or closed): nothing left to watch.
    if (res.writableFinished || res.closed) return;
    const socket = res.socket;
    const now = sentBytes(socket);
    if (socket !== null && !socket.destroyed && socket.writableLength > 0 && now === sent) {
      onTimeout?.(request, timeout);
      resetConnection(socket);
      return;
    }
    sent = now;
    timer.refresh();
  }, timeout);
  // Never what keeps a stopping process alive.
  timer.unref();
  const stop = (): void => clearTimeout(timer);
  if (!streamed) res.once('close', stop);
  return stop;
}

// What the kernel has accepted of all the connection's writes; -1 before the response has its socket.
function sentBytes(socket: Socket | null): number {
  return socket === null ? -1 : socket.bytesWritten - socket.writableLength;
}
