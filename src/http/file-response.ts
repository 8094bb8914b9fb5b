import { accessSync, constants, statSync } from 'node:fs';
import { basename, extname } from 'node:path';
import contentDisposition from 'content-disposition';
import { contentType as typeForName } from 'mime-types';
import { formatHttpDate } from '../internal/http-date.js';
import { wellFormed } from '../internal/well-formed.js';
import { FileBody } from './file-body.js';
import { NotFoundHttpException } from './http-exception.js';
import { Response, type HeadersInit } from './response.js';

export interface FileResponseOptions {
  /** By default from the file name's extension (text types with `charset=utf-8`), else `application/octet-stream`. */
  contentType?: string;
  /** Sent as an attachment (a download), named as the file is, or as the string given. */
  download?: boolean | string;
  /** `Cache-Control: max-age=<seconds>, public`; without it `public`, revalidated by Last-Modified and ETag. */
  maxAge?: number;
  status?: number;
  /** Sent as given: a Cache-Control (`private, no-store` for a private download) or ETag here replaces keel's. */
  headers?: HeadersInit;
}

/**
 * A file as the response, Symfony's BinaryFileResponse: Content-Type, Content-Length, Last-Modified, a weak
 * ETag, `Accept-Ranges: bytes` and public caching, the bytes streamed from disk when the response is sent.
 * On a main request keel then answers `If-None-Match`/`If-Modified-Since` with 304, a failed
 * `If-Match`/`If-Unmodified-Since` with 412 and a single `Range` with 206 (see prepareFileResponse). A path that is no regular file is a 404 (`KEEL_ERR_FILE_NOT_FOUND`),
 * naming the file but not where it was looked for.
 * @example const report = () => fileResponse('var/reports/2026.csv', { download: 'report.csv' });
 */
export function fileResponse(path: string, { contentType, download, maxAge, status = 200, headers }: FileResponseOptions = {}): Response {
  let stats;
  // A name holding a NUL byte (`%00` in a route parameter) names no file: node's fs throws a TypeError on it,
  // and a link that loops (ELOOP) leads to none either; both were a 500 for a path a client chose.
  if (!path.includes('\0')) {
    try {
      stats = statSync(path);
    } catch (error) {
      if (!NO_FILE.includes((error as NodeJS.ErrnoException).code ?? '')) throw error;
    }
  }
  if (stats === undefined || !stats.isFile()) {
    throw new NotFoundHttpException(`The file "${basename(path)}" does not exist.`, { code: 'KEEL_ERR_FILE_NOT_FOUND' });
  }
  // An unreadable file fails here, a 500 as the reference's "File must be readable.", not after a 200 and its
  // headers were sent, when the stream could only cut the connection.
  accessSync(path, constants.R_OK);
  const response = new Response(new FileBody(path, stats.size, stats.mtime), status, headers);
  const given = response.headers;
  if (!given.has('content-type')) given.set('Content-Type', contentType ?? typeOf(path));
  given.set('Content-Length', stats.size);
  given.set('Accept-Ranges', 'bytes');
  if (!given.has('etag')) given.set('ETag', `W/"${stats.size.toString(16)}-${Math.floor(stats.mtimeMs).toString(16)}"`);
  if (download !== undefined && download !== false) given.set('Content-Disposition', attachment(download === true ? basename(path) : download));
  // A Cache-Control of the caller's stays (the Response gave one of its own otherwise): public caching of a
  // private download would let a shared cache keep it, as Symfony's BinaryFileResponse does only when public.
  if (!names(headers, 'cache-control')) response.setHeader('Cache-Control', maxAge === undefined ? 'public' : `max-age=${Math.max(0, Math.floor(maxAge))}, public`);
  // Last-Modified through setHeader: the reference then recomputes Cache-Control, as for any response.
  response.setHeader('Last-Modified', formatHttpDate(stats.mtimeMs));
  return response;
}

const NO_FILE = ['ENOENT', 'ENOTDIR', 'ENAMETOOLONG', 'ELOOP'];

// From the extension alone: mime-types reads a bare name as one (a file named `html` was text/html).
function typeOf(path: string): string {
  const extension = extname(path);
  return (extension !== '' && typeForName(extension)) || 'application/octet-stream';
}

function names(headers: HeadersInit | undefined, name: string): boolean {
  if (headers === undefined) return false;
  const given = Symbol.iterator in headers ? [...(headers as Iterable<readonly [string, string]>)].map(([key]) => key) : Object.keys(headers);
  return given.some((key) => key.toLowerCase() === name);
}


// RFC 6266: an ASCII `filename` for old clients, and the real name as UTF-8 in `filename*`. Not Latin-1 in
// `filename`, as the package would write `é`: node refuses such a value once a Content-Length is set.
// Well-formed first: encodeURIComponent, which the package runs on the name, throws on a lone surrogate (a
// name read from JSON, `"\ud800.c"`), a 500 from a name a client chose.
function attachment(given: string): string {
  const name = wellFormed(given);
  return contentDisposition(name, { fallback: name.replace(/[^\x20-\x7e]/g, '?') });
}
