import fresh from 'fresh';
import parseRange from 'range-parser';
import { parseHttpDate } from '../internal/http-date.js';
import { FileBody } from './file-body.js';
import type { Request } from './request.js';
import type { Response } from './response.js';

/**
 * What a file response (see fileResponse) becomes for the request, before Response::prepare() runs:
 * - a GET or HEAD whose `If-Match` names no current version of the file (strongly: keel's weak ETag never
 *   matches, only `*`), or, without `If-Match`, whose `If-Unmodified-Since` is older than the file: 412,
 *   nothing sent (RFC 9110 §13.2.2 evaluates these before any other condition);
 * - a GET or HEAD whose `If-None-Match` or `If-Modified-Since` the file still satisfies: 304, nothing sent
 *   (the usual conditional GET of a static file server; fresh decides, as Express's does);
 * - a GET with one satisfiable `Range` (and an `If-Range` that still names this file: its Last-Modified
 *   date as sent, or a strong ETag, which keel's weak one never is): 206 with
 *   those bytes and `Content-Range`; a range past the end: 416, its `Content-Range` giving the size. A
 *   malformed Range header, or several ranges, gets the whole file, as RFC 9110 allows.
 */
export function prepareFileResponse(response: Response, request: Request): void {
  const body = response.body;
  const method = request.method;
  if (!(body instanceof FileBody) || response.status !== 200 || (method !== 'GET' && method !== 'HEAD')) return;
  const headers = response.headers;
  if (failsPrecondition(request, headers.get('etag'), headers.get('last-modified'))) {
    answerEmpty(response, body, 412);
    return;
  }
  // A date that is no HTTP-date is ignored (RFC 9110 §13.1.3): fresh's Date.parse took `2099` for one, a 304.
  const modifiedSince = request.header('if-modified-since');
  const conditions = {
    'if-none-match': request.header('if-none-match'),
    'if-modified-since': parseHttpDate(modifiedSince) === undefined ? undefined : modifiedSince,
    'cache-control': request.header('cache-control'),
  };
  if ((conditions['if-none-match'] !== undefined || conditions['if-modified-since'] !== undefined) && fresh(conditions, { etag: headers.get('etag'), 'last-modified': headers.get('last-modified') })) {
    // Response::prepare() then drops the body, Content-Type and Content-Length of the 304.
    response.status = 304;
    return;
  }
  const range = request.header('range');
  if (range === undefined || method !== 'GET') return;
  // If-Range holds only for a strong validator (RFC 9110 §13.1.5): the weak ETag never, the Last-Modified
  // date as sent, compared as the reference compares it.
  const ifRange = request.header('if-range');
  if (ifRange !== undefined && (ifRange.startsWith('W/') || ifRange !== (ifRange.startsWith('"') ? headers.get('etag') : headers.get('last-modified')))) return;
  // Another unit is ignored (RFC 9110 §14.2), also for an empty file, where range-parser finds no byte to give
  // before it looks at the unit.
  if (range.slice(0, range.indexOf('=')) !== 'bytes') return;
  // A range whose last byte comes before its first is no range at all (RFC 9110 §14.1.2, "invalid"), which
  // makes the header invalid and ignored; range-parser would call it unsatisfiable, a 416.
  if (hasBackwardsRange(range)) return;
  // An empty file satisfies only a suffix of non-zero length (RFC 9110 §14.1.1), and no 206 can carry its
  // no bytes: the whole, empty file is the answer.
  if (body.size === 0 && /(?:=|,)\s*-0*[1-9]/.test(range)) return;
  const ranges = parseRange(body.size, clampSuffixes(range, body.size), { combine: true });
  if (ranges === -2 || (ranges !== -1 && ranges.length !== 1)) return;
  if (ranges === -1) {
    answerEmpty(response, body, 416);
    headers.set('Content-Range', `bytes */${body.size}`);
    return;
  }
  const { start, end } = ranges[0]!;
  response.status = 206;
  response.body = body.slice(start, end);
  headers.set('Content-Range', `bytes ${start}-${end}/${body.size}`);
  headers.set('Content-Length', end - start + 1);
}

// RFC 9110 §13.1.1 and §13.1.4, in the order of §13.2.2: If-Match compares strongly, so a weak tag, sent or
// held, never matches; If-Unmodified-Since counts only without If-Match, and only when it is a date.
function failsPrecondition(request: Request, etag: string | undefined, lastModified: string | undefined): boolean {
  const ifMatch = request.header('if-match');
  if (ifMatch !== undefined) {
    if (ifMatch.trim() === '*') return false;
    if (etag === undefined || etag.startsWith('W/')) return true;
    return ifMatch.match(/(?:W\/)?"[^"]*"/g)?.includes(etag) !== true;
  }
  const since = parseHttpDate(request.header('if-unmodified-since'));
  return since !== undefined && lastModified !== undefined && Date.parse(lastModified) > since;
}

function answerEmpty(response: Response, body: FileBody, status: number): void {
  response.status = status;
  body.destroy();
  response.body = '';
  response.headers.delete('content-length');
}

// RFC 9110 §14.1.2: a suffix longer than the file asks for all of it. range-parser would count it from before
// the first byte and answer 416, so each such suffix is cut to the file's length first.
function clampSuffixes(range: string, size: number): string {
  return range.replace(/(^[^=]*=|,)(\s*)-(\d+)/g, (spec, before: string, space: string, length: string) => (Number(length) > size ? `${before}${space}-${size}` : spec));
}

function hasBackwardsRange(range: string): boolean {
  for (const spec of range.slice(range.indexOf('=') + 1).split(',')) {
    const bounds = /^\s*(\d+)\s*-\s*(\d+)\s*$/.exec(spec);
    if (bounds !== null && Number(bounds[2]) < Number(bounds[1])) return true;
  }
  return false;
}
