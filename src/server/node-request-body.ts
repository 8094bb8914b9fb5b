import type { IncomingMessage, ServerResponse } from 'node:http';
import { headerFromLines } from '../http/header-lines.js';
import { HttpException } from '../http/http-exception.js';
import type { BodySource } from '../http/request.js';

// Requests that sent `Expect: 100-continue`, with their response, until the interim 100 is sent: when the
// body is first read, so that a request refused before it (404, 405, 429, a body declared too large) is
// answered without the client ever sending the body.
const owedContinue = new WeakMap<IncomingMessage, ServerResponse>();

/** Defers the `100 Continue` node would send at once to the first read of the body (see serve's checkContinue). */
export function continueOnBodyRead(req: IncomingMessage, res: ServerResponse): void {
  owedContinue.set(req, res);
}

// A final answer to a request whose 100 was never sent: its client either waits for it or sends the body
// after all, which nobody reads; either way the connection cannot carry another request, so it ends here.
export function closeIfContinueOwed(res: ServerResponse): void {
  if (owedContinue.delete(res.req)) res.shouldKeepAlive = false;
}

/** The body of node's request, read into memory up to `limit` bytes. */
export class NodeRequestBody implements BodySource {
  readonly #req: IncomingMessage;
  readonly #limit: number;

  constructor(req: IncomingMessage, limit: number) {
    this.#req = req;
    this.#limit = limit;
  }

  #read: Promise<Buffer> | undefined;

  // Once per stream, whichever Request asks (the error sub-request shares its parent's source): a second
  // read of a body cut off at the limit would count from zero what is still arriving.
  read(): Promise<Buffer> {
    return (this.#read ??= readBody(this.#req, this.#limit));
  }
}

function readBody(req: IncomingMessage, limit: number): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    // A second read after a failed first one (the rate limiter reads the body before the controller), or a
    // first one once the client has gone: the stream is gone, and waiting for its events would wait for
    // ever. A body that had all arrived is lost with its connection too (node drops what nobody read), so
    // only a stream read to its end by someone else is "consumed"; any other is a client gone, a 400.
    if (req.destroyed || req.readableEnded) {
      reject(req.readableEnded ? new Error('The request body was already consumed.') : clientGone(req));
      return;
    }
    // From the lines, as the Request reads its headers: node's own record is never built.
    const declared = Number(headerFromLines(req.rawHeaders, 'content-length') ?? 0);
    if (declared > limit) {
      req.resume();
      reject(tooLarge(limit));
      return;
    }
    const owed = owedContinue.get(req);
    if (owed !== undefined) {
      owedContinue.delete(req);
      owed.writeContinue();
    }
    const chunks: Buffer[] = [];
    let size = 0;
    let ended = false;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > limit) {
        req.removeAllListeners('data');
        req.resume();
        reject(tooLarge(limit));
        return;
      }
      chunks.push(chunk);
    });
    req.on('end', () => {
      ended = true;
      resolve(Buffer.concat(chunks));
    });
    req.on('error', () => reject(clientGone(req)));
    // A client that goes away mid-body (or is cut off by the request timeout) would otherwise leave the
    // controller waiting forever, and shutdown waiting for it.
    req.on('close', () => {
      if (!ended) reject(clientGone(req));
    });
  });
}

// Why the server itself closed a request's connection before its body had all arrived (serve sets it):
// the request's error says so, where a client going away is a 400.
const cutOffs = new WeakMap<IncomingMessage, CutOffReason>();

/** The request timeout ended, the server is stopping, or the body broke its framing (a bad chunk size). */
export type CutOffReason = 'timeout' | 'stopping' | 'malformed';

/** Records that the server is closing this request's connection, for the reason its body read fails with. */
export function noteCutOff(req: IncomingMessage, reason: CutOffReason): void {
  // The first reason is the cause: the parser may fail the body again as its connection closes.
  if (!req.complete && !cutOffs.has(req)) cutOffs.set(req, reason);
}

function clientGone(req: IncomingMessage): HttpException {
  const reason = cutOffs.get(req);
  if (reason === 'timeout') return new HttpException(408, { code: 'KEEL_ERR_REQUEST_TIMEOUT', message: 'The request body did not arrive within the request timeout.' });
  if (reason === 'malformed') return new HttpException(400, { code: 'KEEL_ERR_BAD_REQUEST', message: 'The request body is malformed.' });
  if (reason === 'stopping') return new HttpException(503, { code: 'KEEL_ERR_SERVER_STOPPING', message: 'The server stopped before the whole body arrived.' });
  const message = req.complete ? 'The client closed the connection before its body was read.' : 'The client closed the connection before the whole body arrived.';
  return new HttpException(400, { code: 'KEEL_ERR_CLIENT_GONE', message });
}

function tooLarge(limit: number): HttpException {
  return new HttpException(413, { code: 'KEEL_ERR_BODY_TOO_LARGE', message: `The request body exceeds ${limit} bytes.` });
}
