import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import type { Duplex } from 'node:stream';
import { formatHttpDate } from '../internal/http-date.js';
import { continueOnBodyRead, noteCutOff } from './node-request-body.js';
import type { RequestListener } from './node-adapter.js';
import { isRefusedRequest, refuse } from './refused-request.js';
import { admitPipelined, lastResponseOn } from './pipeline-depth.js';

export interface ServeOptions {
  port?: number;
  host?: string;
  /** Cut off clients that take longer than this to send their headers (slowloris), in ms. */
  headersTimeout?: number;
  /** Whole-request timeout, in ms. */
  requestTimeout?: number;
  keepAliveTimeout?: number;
  maxHeaderSize?: number;
  /** How long close() waits for in-flight requests before destroying their sockets, in ms. */
  gracePeriod?: number;
}

export interface RunningServer {
  server: Server;
  port: number;
  host: string;
  url: string;
  /** Stops accepting connections, lets in-flight requests finish, then resolves. */
  close(): Promise<void>;
}

type Handler = Parameters<typeof createServer>[1];

/**
 * Listens with a request handler and answers the parser's own errors cleanly: a malformed request line
 * gets a 400, oversized headers a 431, each with `Connection: close`, never a dropped socket. The handler
 * is keel's request listener (createRequestListener): it sends the `100 Continue` of a request that asks
 * for one when its body is first read.
 */
export function serve(handler: NonNullable<Handler>, options: ServeOptions = {}): Promise<RunningServer> {
  const {
    port = 8000,
    host = '127.0.0.1',
    headersTimeout = 10_000,
    requestTimeout = 30_000,
    keepAliveTimeout = 5_000,
    maxHeaderSize = 16 * 1024,
    gracePeriod = 10_000,
  } = options;
  // node checks the two timeouts only every connectionsCheckingInterval (30 s by default): a few checks per
  // headers timeout make the cut-off happen close to the configured time rather than up to 30 s late.
  const connectionsCheckingInterval = Math.max(50, Math.min(30_000, Math.floor(headersTimeout / 4)));
  // Once stopping, every response closes its connection: a keep-alive client (a proxy's pool) would
  // otherwise go on sending requests until the grace period cuts them off mid-answer.
  let stopping = false;
  const onRequest = (req: IncomingMessage, res: ServerResponse): void => {
    const before = lastResponseOn(req.socket);
    const admitted = admitPipelined(req, res);
    if (admitted === 'drop') return;
    if (admitted === 'refuse') {
      refuse(res, 429, 'Too Many Requests');
      return;
    }
    if (isRefusedRequest(req)) {
      refuse(res, 400, 'Bad Request');
      return;
    }
    if (stopping) {
      res.shouldKeepAlive = false;
      // Pipelined behind a response that closes the connection: node would drop this one's answer when the
      // connection closes, so running it (a POST) would act on a request its client never hears back from
      // and may send again. RFC 9112 §9.6: no further requests are processed on such a connection.
      if (before !== undefined && !before.writableFinished && !before.shouldKeepAlive) return;
    }
    handler(req, res);
  };
  const server = createServer({ maxHeaderSize, requestTimeout, headersTimeout, keepAliveTimeout, connectionsCheckingInterval, requireHostHeader: false }, onRequest);
  // Every header line reaches the application: node drops those past the 2000th, so a second Host at line
  // 2001 went unseen. maxHeaderSize bounds them all the same.
  server.maxHeadersCount = 0;
  // `Expect: 100-continue`: node would send the 100 before the request is even routed; it is sent when the
  // application reads the body instead, so an upload to a missing route, a refused method, a rate-limited
  // client or a body declared too large is answered before any of it is sent.
  server.on('checkContinue', (req: IncomingMessage, res: ServerResponse) => {
    continueOnBodyRead(req, res);
    onRequest(req, res);
  });
  // An expectation other than 100-continue (RFC 9110 §10.1.1): node answers 417 with an empty body by itself.
  server.on('checkExpectation', (_req: IncomingMessage, res: ServerResponse) => refuse(res, 417, 'Expectation Failed'));
  server.on('clientError', (error: NodeJS.ErrnoException, socket) => {
    // Bytes after a request that asked to close the connection: no request is owed an answer, and the
    // response in flight closes the connection itself. A 400 there would tell a pipelining client that a
    // request it may retry was refused.
    if (error.code === 'HPE_CLOSED_CONNECTION') return;
    // The connection itself failed (a reset mid-download, a write after the client left): there is no one
    // to answer. Waiting on the response in flight for that would add listeners to it on every such
    // failure, a leak warning on every cancelled download.
    if (socket.destroyed || !socket.writable) {
      socket.destroy();
      return;
    }
    const [status, text] =
      error.code === 'HPE_HEADER_OVERFLOW'
        ? [431, 'Request Header Fields Too Large']
        : error.code === 'ERR_HTTP_REQUEST_TIMEOUT'
          ? [408, 'Request Timeout']
          : [400, 'Bad Request'];
    // The response on this connection not written yet (node's own handler looks at the same field).
    const inFlight = responseOn(socket);
    // None, while the request being read is one node already created: its response was sent before its
    // body had all arrived (a 404 or 413 to an upload), and node went on reading the body to keep the
    // connection. That request has had its answer; a 408 for a body that stalls, or a 400 for one that
    // breaks or stops short, would be a second one, which a pipelining client would take for the next's.
    if (!inFlight && (socket as ParsedSocket).parser?.incoming?.complete === false) {
      socket.destroy();
      return;
    }
    if (inFlight && !inFlight.writableFinished) {
      if (inFlight.req.complete) {
        // An earlier, whole request's: the 400 follows its response instead of cutting into it or replacing it.
        answerAfterPipelined(socket, inFlight, status, text);
        return;
      }
      // The failing request's own (a body cut off by the request timeout): answered now, as node does,
      // unless its response has begun, which another head would corrupt.
      if (error.code === 'ERR_HTTP_REQUEST_TIMEOUT') noteCutOff(inFlight.req, 'timeout');
      // The parser's own errors (HPE_…) in a body: the client sent something broken rather than went away.
      // Except the end of the connection before the body's: node reports a client gone mid-body so.
      else if (error.code?.startsWith('HPE_') === true && error.code !== 'HPE_INVALID_EOF_STATE') noteCutOff(inFlight.req, 'malformed');
      if (inFlight.headersSent) {
        socket.destroy();
        return;
      }
    }
    answerAndClose(socket, status, text);
  });
  const sockets = new Set<Socket>();
  server.on('connection', (socket: Socket) => {
    // Read now, while the peer is there: node keeps the answer. Asked later, once a client has reset the
    // connection (right after sending a request), the kernel has no peer to tell and the address is
    // undefined, which must not be mistaken for anyone (see normaliseAddress).
    void socket.remoteAddress;
    sockets.add(socket);
    socket.once('close', () => sockets.delete(socket));
  });
  // node hands CONNECT to a 'connect' listener and, without one, drops the socket without a word. keel is
  // an origin server, not a tunnel: the request is refused like any other malformed one.
  // Pipelined behind requests still being answered, it waits for their answers, as a malformed request does.
  server.on('connect', (_request, socket: Duplex) => {
    const inFlight = responseOn(socket);
    if (inFlight && !inFlight.writableFinished) answerAfterPipelined(socket, inFlight, 400, 'Bad Request');
    else answerAndClose(socket, 400, 'Bad Request');
  });

  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      const address = server.address() as AddressInfo;
      const shownHost = address.family === 'IPv6' ? `[${address.address}]` : address.address;
      resolve({
        server,
        port: address.port,
        host: address.address,
        url: `http://${shownHost}:${address.port}`,
        close: () => {
          stopping = true;
          // keel's request listener tells the sources of streamed responses to end: a stream that never ends
          // (server-sent events) would hold the stop for its whole grace period, then be cut.
          (handler as Partial<Pick<RequestListener, 'stopStreams'>>).stopStreams?.();
          // Responses not begun yet close their connection too (RFC 9112 §9.6): their client was promised
          // nothing, and would otherwise send its next request into a connection about to be closed. The
          // last one queued, not the first: pipelined requests already run behind it get their answers.
          for (const socket of sockets) {
            const res = lastResponseOn(socket as Socket);
            if (res && !res.headersSent) res.shouldKeepAlive = false;
          }
          return closeGracefully(server, gracePeriod, sockets);
        },
      });
    });
  });
}

function answerAndClose(socket: Duplex, status: number, text: string): void {
  if (!socket.writable) {
    socket.destroy();
    return;
  }
  const body = `${status} ${text}\n`;
  // Date too: RFC 9110 §6.6.1 asks it of every response from a server with a clock.
  socket.end(`HTTP/1.1 ${status} ${text}\r\nContent-Type: text/plain; charset=UTF-8\r\nContent-Length: ${body.length}\r\nDate: ${formatHttpDate()}\r\nConnection: close\r\n\r\n${body}`);
  // end() closes our half only: a client that keeps its own open (a slowloris past its 408) held the socket,
  // and a request whose body stalled, for ever. It is destroyed once the client has had a while to read the
  // answer, as nginx lingers before it closes; what it still sends meanwhile is read and dropped, so that
  // the close does not turn into a reset that could discard the answer.
  socket.resume();
  const linger = setTimeout(() => socket.destroy(), LINGER_MS);
  linger.unref();
  socket.once('close', () => clearTimeout(linger));
}

/**
 * Answers once the responses owed to the whole requests before it are sent: the one being written on the
 * connection (`inFlight`), and those of requests pipelined behind it, which node queues and writes after it.
 * Sent at the end of the first alone, the answer cut into the next one's (a stream's last chunk lost) and
 * ended the connection before the others, whose requests had run. A response cut off before it finished
 * (the client went away) leaves nothing more to say on this connection.
 */
function answerAfterPipelined(socket: Duplex, inFlight: ServerResponse, status: number, text: string): void {
  const last = lastResponseOn(socket as Socket);
  const awaited = last !== undefined && last.req.complete && !last.writableFinished ? last : inFlight;
  awaited.once('finish', () => answerAndClose(socket, status, text));
  awaited.once('close', () => {
    if (!awaited.writableFinished) socket.destroy();
  });
}

// nginx's lingering_timeout.
const LINGER_MS = 5000;

// Connections busy when the stop began become idle as their responses end (those already under way may
// have promised keep-alive): they are closed within a sweep of that, the rest at the grace period.
const IDLE_SWEEP_MS = 50;

function closeGracefully(server: Server, gracePeriod: number, sockets: ReadonlySet<Socket>): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(() => {
      // Requests still receiving their body fail as cut off by the stop, not as abandoned by their client.
      for (const socket of sockets) {
        const res = responseOn(socket);
        if (res) noteCutOff(res.req, 'stopping');
      }
      server.closeAllConnections();
    }, gracePeriod);
    timer.unref();
    const closeUnanswered = () => closeConnectionsWithoutResponse(sockets);
    const sweep = setInterval(closeUnanswered, IDLE_SWEEP_MS);
    sweep.unref();
    // server.close() first destroys what node deems idle: a connection whose request has arrived and whose
    // response has ended, sent or not. A large body still queued for a slow client was cut there, at the
    // start of the stop; closeUnanswered closes the connection once the response has all gone out instead.
    server.closeIdleConnections = closeUnanswered;
    server.close(() => {
      clearTimeout(timer);
      clearInterval(sweep);
      resolve();
    });
    closeUnanswered();
  });
}

/**
 * Closes every connection no response is being written on: idle ones (what node's closeIdleConnections
 * closes), and those still sending a request's head, which node counts as busy. Once server.close() has
 * stopped node's timeout checks, a client that opened a connection and sent half a line would hold the stop
 * for the whole grace period; no request of theirs has reached the application, so there is nothing to finish.
 */
function closeConnectionsWithoutResponse(sockets: ReadonlySet<Socket>): void {
  for (const socket of sockets) if (!responseOn(socket)) socket.destroy();
}

// node's own fields: the response being written on a connection (its clientError handler reads the same),
// and the request its parser is reading.
type ParsedSocket = Duplex & { _httpMessage?: ServerResponse | null; parser?: { incoming?: IncomingMessage | null } | null };

function responseOn(socket: Duplex): ServerResponse | undefined {
  return (socket as ParsedSocket)._httpMessage ?? undefined;
}
