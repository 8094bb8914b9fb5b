import type { ServerResponse } from 'node:http';
import type { Request } from '../http/request.js';

/** A page for a failure the error pipeline could not answer (the debug page), or undefined for plain text. */
export type FailurePage = (error: unknown, request: Request) => { headers: readonly (readonly [string, string])[]; body: string } | undefined;

const FAILURE_BODY = 'Internal Server Error\n';
const PLAIN: readonly (readonly [string, string])[] = [['Content-Type', 'text/plain; charset=UTF-8']];

/**
 * Answers 500 for a failure outside the error pipeline (a listener of the error response that threw, a head
 * node refused): with the page `page` makes of it when it can, as Symfony's ErrorHandler renders the debug
 * exception page for what the kernel could not handle, else in plain text. A page that fails, or whose head
 * node refuses, falls back to the plain text; a response whose head is already sent is only ended.
 */
export function answerFailure(res: ServerResponse, error: unknown, request: Request, page: FailurePage | undefined): void {
  if (res.headersSent) {
    res.end();
    return;
  }
  let rendered: ReturnType<FailurePage>;
  try {
    rendered = page?.(error, request);
  } catch {
    rendered = undefined;
  }
  // The body is the one whose head went out: a page whose head node refused (it carries the header that
  // failed in the first place) is not sent under the plain text's Content-Length, which would have left
  // the rest of the page on a keep-alive connection, read by the client as its next response.
  let body = FAILURE_BODY;
  if (rendered !== undefined && writeHead(res, rendered.headers, rendered.body)) body = rendered.body;
  else writeHead(res, PLAIN, FAILURE_BODY);
  res.end(res.req.method === 'HEAD' ? undefined : body);
}

// The reason phrase too: a writeHead() that threw may have left its own on the response, and its length:
// node keeps a Content-Length it read before failing, and would frame this body by it.
function writeHead(res: ServerResponse, headers: readonly (readonly [string, string])[], body: string): boolean {
  const lines = headers.filter(([name]) => !/^(?:content-length|cache-control)$/i.test(name)).flat();
  try {
    res.writeHead(500, 'Internal Server Error', [...lines, 'Cache-Control', 'no-cache, private', 'Content-Length', String(Buffer.byteLength(body))]);
    return true;
  } catch {
    return false;
  }
}
