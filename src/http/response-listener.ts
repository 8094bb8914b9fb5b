import type { ResponseEvent } from '../kernel/events.js';
import type { Subscriber, Subscription } from '../kernel/event-dispatcher.js';
import { discardStreamedBody } from './body-stream.js';
import { secureCookieDefaults } from './cookies.js';
import { prepareFileResponse } from './prepare-file-response.js';
import type { Request } from './request.js';
import type { Response } from './response.js';

// Symfony's Request::$formats, first MIME type of each: what `_format` turns into.
const FORMAT_MIME_TYPES: Record<string, string> = {
  html: 'text/html',
  txt: 'text/plain',
  js: 'application/javascript',
  css: 'text/css',
  json: 'application/json',
  jsonld: 'application/ld+json',
  xml: 'text/xml',
  rdf: 'application/rdf+xml',
  atom: 'application/atom+xml',
  rss: 'application/rss+xml',
  form: 'application/x-www-form-urlencoded',
};
const CHARSET = 'UTF-8';

/**
 * Symfony's ResponseListener (`response`, priority 0, main request only), which calls Response::prepare():
 * fixes Content-Type, empties bodies that must be empty, adds the HTTP/1.0 cache headers, and makes the
 * cookies set without a `secure` option Secure on a secure request.
 */
export class ResponseListener implements Subscriber {
  subscribedEvents(): Subscription[] {
    return [{ event: 'response', listener: this.onResponse.bind(this), priority: 0, name: 'ResponseListener.onResponse' }];
  }

  onResponse(event: ResponseEvent): void {
    if (!event.isMainRequest) return;
    prepareResponse(event.response, event.request);
  }
}

/** Response::prepare() of the reference, in the same order. */
export function prepareResponse(response: Response, request: Request): Response {
  // BinaryFileResponse::prepare() of the reference first: a file may become a 206, a 304 or a 416 here.
  prepareFileResponse(response, request);
  const headers = response.headers;
  if (response.isInformational || response.isEmpty) {
    emptyBody(response);
    headers.delete('content-type');
    headers.delete('content-length');
  } else {
    const format = request.attributes.format;
    // Own keys only: a route's `{_format}` comes from the URL, and `/a.constructor` named Object's
    // constructor, which became the Content-Type `function Object() { [native code] }`.
    if (!headers.has('content-type') && format !== undefined && Object.hasOwn(FORMAT_MIME_TYPES, format)) {
      headers.set('Content-Type', FORMAT_MIME_TYPES[format]!);
    }
    const type = headers.get('content-type');
    if (type === undefined) headers.set('Content-Type', `text/html; charset=${CHARSET}`);
    else if (/^text\//i.test(type) && !/charset/i.test(type)) headers.set('Content-Type', `${type}; charset=${CHARSET}`);
    if (headers.has('transfer-encoding')) headers.delete('content-length');
    // RFC 9110 §9.3.2: a HEAD answer has the headers of the GET answer but no content.
    if (request.method === 'HEAD') emptyBody(response);
  }
  if (request.httpVersion === '1.0' && (headers.get('cache-control') ?? '').includes('no-cache')) {
    // Through Response.setHeader, as in the reference: setting Expires recomputes Cache-Control. Lower-case,
    // as Symfony's Response::prepare() names them, and so they go on the wire.
    response.setHeader('pragma', 'no-cache');
    response.setHeader('expires', '-1');
  }
  if (request.isSecure) secureCookieDefaults(response);
  return response;
}

// A stream that will not be sent is let go of now (a file's descriptor closed), not left to the collector.
function emptyBody(response: Response): void {
  discardStreamedBody(response);
  response.body = '';
}
