import { type ServerResponse, STATUS_CODES } from 'node:http';
import type { Request } from '../http/request.js';

/** A page for a failure the error pipeline could not answer (the debug page), or undefined for plain text. */
export type FailurePage = (error: unknown, request: Request) => { status?: number; headers: readonly (readonly [string, string])[]; body: string } | undefined;

const FAILURE_BODY = 'Internal Server Error\n';
const PLAIN: readonly (readonly [string, string])[] = [['Content-Type', 'text/plain; charset=UTF-8']];

/**
 * Answers a failure outside the error pipeline (a listener of the error response that threw, a head node
 * refused): with the page `page` makes of it when it can, at the page's error status, as Symfony's ErrorHandler
 * renders the debug exception page for what the kernel could not handle, else with a 500 in plain text. A page that fails, or whose head
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
  if (rendered !== undefined && writeHead(res, errorStatus(rendered.status), rendered.headers, rendered.body)) body = rendered.body;
  else writeHead(res, 500, PLAIN, FAILURE_BODY);
  res.end(res.req.method === 'HEAD' ? undefined : body);
}

// The reason phrase too: a writeHead() that threw may have left its own on the response, and its length:
// node keeps a Content-Length it read before failing, and would frame this body by it.
function writeHead(res: ServerResponse, status: number, headers: readonly (readonly [string, string])[], body: string): boolean {
  const lines = headers.filter(([name]) => !/^(?:content-length|cache-control)$/i.test(name)).flat();
  try {
    res.writeHead(status, STATUS_CODES[status] ?? 'Internal Server Error', [...lines, 'Cache-Control', 'no-cache, private', 'Content-Length', String(Buffer.byteLength(body))]);
    return true;
  } catch {
    return false;
  }
}

// The page's own status, as Symfony's ErrorHandler answers with the status of the exception it renders (a
// 401 thrown while rendering an error is a 401 page): the page names it, and a 500 under it contradicted
// it. Only an error status: what failed is never answered as a success or a redirect.
function errorStatus(status: number | undefined): number {
  return status !== undefined && Number.isInteger(status) && status >= 400 && status <= 599 ? status : 500;
}
