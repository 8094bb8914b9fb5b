import type { Socket } from 'node:net';
import type { IncomingMessage, ServerResponse } from 'node:http';

/**
 * Requests a connection may have waiting for their answers at once. node parses every request of a chunk
 * it has read and queues their responses, whether or not the client reads them: 64 kB of pipelined
 * `GET /x` that a client never reads back made ~2 300 debug pages, 75 MB held per connection. Browsers
 * do not pipeline; a load generator's pipelining stays far below.
 */
export const MAX_PIPELINED = 100;

const WAITING = Symbol('keel.pipelined');
const REFUSED = Symbol('keel.pipelineRefused');
const LAST = Symbol('keel.lastResponse');

type PipelinedSocket = Socket & { [WAITING]?: number; [REFUSED]?: boolean; [LAST]?: ServerResponse };

/** The response of the last request served on this connection: the last answer its client waits for. */
export function lastResponseOn(socket: Socket): ServerResponse | undefined {
  return (socket as PipelinedSocket)[LAST];
}

/**
 * What to do with a request as it arrives: `serve` it; `refuse` it, the first past MAX_PIPELINED, with a
 * 429 that closes the connection once the answers before it are sent; or `drop` it, pipelined behind that
 * refusal: the connection closes before it could be answered (RFC 9112 §9.6).
 */
export function admitPipelined(req: IncomingMessage, res: ServerResponse): 'serve' | 'refuse' | 'drop' {
  const socket = req.socket as PipelinedSocket;
  if (socket[REFUSED] === true) return 'drop';
  const waiting = (socket[WAITING] ?? 0) + 1;
  if (waiting > MAX_PIPELINED) {
    socket[REFUSED] = true;
    return 'refuse';
  }
  socket[WAITING] = waiting;
  socket[LAST] = res;
  res.once('close', answered);
  return 'serve';
}

// A module function, not a closure per request (see traced-call.ts).
function answered(this: ServerResponse): void {
  const socket = this.req.socket as PipelinedSocket;
  socket[WAITING] = (socket[WAITING] ?? 1) - 1;
}
