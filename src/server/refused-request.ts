import type { IncomingMessage, ServerResponse } from 'node:http';
import { headerFromLines } from '../http/header-lines.js';

/**
 * Whether node's parser let through a request the server must not run, which it then answers with a 400
 * (see refuse): node accepts a few shapes that RFC 9112 forbids, or answers them itself with an empty body.
 */
export function isRefusedRequest(req: IncomingMessage): boolean {
  // HTTP/0.9 (a request line without a version, too) and HTTP/2.0 get through, though 1.2 and 3.0 do not:
  // neither is a version an HTTP/1.1 server speaks, and the application would be handed a request whose
  // version it cannot answer in.
  if (req.httpVersionMajor !== 1) return true;
  // RFC 9112 §3.2: an HTTP/1.1 request without Host is a 400. node's own check (requireHostHeader, which
  // serve turns off) answers it with an empty body, unlike every other request the server refuses.
  // RFC 9112 §6.1: a transfer coding the server does not understand (`gzip, chunked`, `foo, chunked`)
  // is refused (with 501 there; keel keeps to a 4xx for what a client sends): node decodes the chunks
  // only, and would hand the application a body still in the other coding.
  if (req.httpVersionMinor === 1) return headerFromLines(req.rawHeaders, 'host') === undefined || !isChunkedAlone(headerFromLines(req.rawHeaders, 'transfer-encoding'));
  // RFC 9112 §6.1: an HTTP/1.0 message with Transfer-Encoding has faulty framing. node reads it chunked, and
  // with keep-alive reads the next request where an HTTP/1.0 proxy in front may see body: a smuggling
  // shape, refused as a Content-Length beside a Transfer-Encoding is.
  return headerFromLines(req.rawHeaders, 'transfer-encoding') !== undefined;
}

// No Transfer-Encoding, or chunked alone: the one coding node (and keel) decodes.
function isChunkedAlone(transferEncoding: string | undefined): boolean {
  return transferEncoding === undefined || transferEncoding.trim().toLowerCase() === 'chunked';
}

/** Answers a request node parsed but the server will not run, as serve answers those it could not parse. */
export function refuse(res: ServerResponse, status: number, text: string): void {
  const body = `${status} ${text}\n`;
  res.shouldKeepAlive = false;
  res.writeHead(status, text, { 'Content-Type': 'text/plain; charset=UTF-8', 'Content-Length': body.length });
  res.end(body);
}
