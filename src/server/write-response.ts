import type { ServerResponse } from 'node:http';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { ReadableStream as WebReadableStream } from 'node:stream/web';
import { discardBodyStream, isBodyStream, type BodyStream } from '../http/body-stream.js';
import type { Request } from '../http/request.js';
import type { Response } from '../http/response.js';
import { cheapestEncoding } from '../internal/ascii-encoding.js';
import { checkedChunk } from './checked-chunks.js';
import { endingAtStop, isSignalStop } from './client-gone-signal.js';
import { sanitizeHeaderValues, takeConnectionHeaders } from './header-values.js';
import { closeIfContinueOwed } from './node-request-body.js';
import { resetConnection } from './reset-connection.js';

/** Writes the response; for a streamed body, resolves once it is all sent (rejects if it failed midway). */
export function writeResponse(res: ServerResponse, request: Request, response: Response): Promise<void> | undefined {
  // A 1xx is interim (RFC 9110 §15.2): sent as the answer, it would leave the client waiting for the real one.
  if (response.isInformational) throw new RangeError(`The HTTP status code "${response.status}" is informational and cannot end a response.`);
  closeIfContinueOwed(res);
  const raw = response.headers.flatLines();
  if (takeConnectionHeaders(raw)) res.shouldKeepAlive = false;
  const obsText = sanitizeHeaderValues(raw);
  const bodyless = request.realMethod === 'HEAD' || response.isEmpty;
  // node writes a head holding obs-text as Latin-1, one byte per character, except when it sends the head
  // and a string body in one piece: then the head is encoded as the body is, UTF-8, and `é` goes out as two
  // bytes. As a Buffer, the body goes out apart from the head, whose bytes are then the same for every body.
  const body = obsText && typeof response.body === 'string' ? Buffer.from(response.body) : response.body;
  const stream = isBodyStream(body) ? body : undefined;
  // Framing: writeHead() fixes the header block, so node can no longer add Content-Length by itself. One a
  // controller set is checked against the body: a wrong one would make a keep-alive client read the rest of
  // the body as the next response (Fastify corrects it too). A stream's length is not known before it
  // ends: node sends it chunked (HTTP/1.1) or closes the connection after it (HTTP/1.0), unless the
  // controller declared its length (a file's size), which is then the application's word.
  // Declared twice, with different values, the length is no framing at all (RFC 9112 §6.3): a client or a
  // proxy in front either refuses the answer or reads the body by the one it picks.
  let encoding: BufferEncoding = 'utf8';
  const declared = response.headers.get('content-length');
  const repeated = declared !== undefined && response.headers.all('content-length').length > 1;
  if (!bodyless && stream === undefined && !response.headers.has('transfer-encoding')) {
    const bytes = Buffer.byteLength(body as string | Buffer);
    if (typeof body === 'string') encoding = cheapestEncoding(body, bytes);
    const length = String(bytes);
    if (declared === undefined) raw.push('Content-Length', length);
    else if (declared !== length || repeated) setContentLength(raw, length);
  } else if (response.status === 204) {
    // No framing at all (RFC 9110 §8.6, RFC 9112 §6.1), whatever a listener set after the response was prepared.
    if (declared !== undefined || response.headers.has('transfer-encoding')) dropFraming(raw);
  } else if (repeated) {
    // The first kept: one line, whichever, is what a client can frame the body by.
    setContentLength(raw, undefined);
  }
  // The reason phrase too: node's own table spells a few differently from the reference (413, 418, 422).
  res.writeHead(response.status, response.statusText, raw);
  if (stream === undefined) {
    if (bodyless) res.end();
    else if (typeof body === 'string') res.end(body, encoding);
    else res.end(body);
    return undefined;
  }
  if (bodyless) {
    discardBodyStream(stream);
    res.end();
    return undefined;
  }
  return sendStream(res, stream);
}

// pipeline() keeps to the socket's pace (a slow client holds the source, not memory), and ends both sides
// on either failing: a source error resets the connection, so the client sees an unfinished body rather than
// a complete-looking one; a client gone stops the source. The latter is no failure of the application.
async function sendStream(res: ServerResponse, stream: BodyStream): Promise<void> {
  // A declared length (a file's size) the stream falls short of or exceeds (the file changed meanwhile)
  // fails the write instead of leaving a keep-alive client waiting for bytes, or reading them as a response.
  res.strictContentLength = true;
  // Closed before it finished: the client went away (writableFinished cannot tell, once a source that
  // stopped on request.signal has ended the response into the closed socket).
  // A node stream destroyed without an error before it ended fails the same way, but first: the response is
  // then cut because of it, which is the application's failure to log.
  let finished = false;
  let cutShort = false;
  let sourceClosedFirst = false;
  res.once('finish', () => (finished = true));
  // A web stream through node's own adapter: destroyed, it cancels the stream even while a read is pending,
  // where pipeline's reading of it as an async iterable waits for that read before letting go.
  // A source that fails resets the connection, before pipeline() closes it: a close ends a body framed by
  // it (HTTP/1.0, nginx's default to its upstreams) as if complete, the failure unseen (see resetConnection).
  const failed = (error: unknown): void => {
    if (!isSignalStop(error)) resetConnection(res.socket);
  };
  const source = stream instanceof ReadableStream ? Readable.fromWeb(stream as WebReadableStream) : stream instanceof Readable ? stream : endingAtStop(stream, failed, checkedChunk);
  if (source instanceof Readable) {
    // Both listeners before pipeline's own.
    source.once('error', failed);
    source.once('close', () => {
      sourceClosedFirst = !res.closed;
      // Destroyed without an error before its end.
      if (sourceClosedFirst && !source.readableEnded && source.errored === null) resetConnection(res.socket);
    });
  }
  const sending = pipeline(source, res).catch((error: unknown) => {
    if ((error as NodeJS.ErrnoException).code === 'ERR_STREAM_PREMATURE_CLOSE' && cutShort && !sourceClosedFirst) return;
    // A source that stopped on request.signal, as asked, fails with its reason (the client left, the server
    // stops): no error.
    if (isSignalStop(error)) return;
    throw error;
  });
  // Once the client is gone the request is over, whether or not the source has stopped: pipeline() asks it
  // to, but an async generator waiting for news (server-sent events) cannot return before its wait ends,
  // and the request would be waited for (by a graceful stop, the profile's writing) for as long. The check
  // runs a turn after the close, so that a source's own failure, which closes the response too, is reported.
  // One close listener for both (a response already has many: node's, pipeline's, request.signal's).
  const gone = new Promise<void>((resolve) =>
    res.once('close', () => {
      cutShort = !finished;
      setImmediate(resolve);
    }),
  );
  await Promise.race([sending, gone]);
  // Settled or not, nothing else waits for it.
  sending.catch(() => undefined);
}

// Every Content-Length and Transfer-Encoding line taken out.
function dropFraming(raw: string[]): void {
  for (let i = raw.length - 2; i >= 0; i -= 2) {
    const name = raw[i]!.toLowerCase();
    if (name === 'content-length' || name === 'transfer-encoding') raw.splice(i, 2);
  }
}

// The first Content-Length line set to `length` (kept as it is when undefined), any other one taken out.
function setContentLength(raw: string[], length: string | undefined): void {
  let found = false;
  for (let i = 0; i < raw.length; i += 2) {
    if (raw[i]!.length !== 14 || raw[i]!.toLowerCase() !== 'content-length') continue;
    if (found) {
      raw.splice(i, 2);
      i -= 2;
    } else {
      found = true;
      if (length !== undefined) raw[i + 1] = length;
    }
  }
}
