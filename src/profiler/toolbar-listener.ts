import { render } from 'preact-render-to-string';
import type { Subscriber, Subscription } from '../kernel/event-dispatcher.js';
import type { ResponseEvent } from '../kernel/events.js';
import { addProfilerNonces, removeCspHeaders, type ProfilerNonces } from './content-security-policy.js';
import type { Profiler } from './profiler.js';
import { Toolbar } from './ui/views/toolbar.js';

/**
 * Symfony's WebDebugToolbarListener (response, priority -128): every profiled response, main or sub,
 * gets `X-Debug-Token-Link`; HTML pages of main requests get the toolbar before their last `</body>`, and
 * main responses have their Content-Security-Policy adjusted for it (see content-security-policy.ts).
 */
export class ToolbarListener implements Subscriber {
  #profiler: Profiler;

  constructor({ profiler }: { profiler: Profiler }) {
    this.#profiler = profiler;
  }

  subscribedEvents(): Subscription[] {
    return [{ event: 'response', listener: this.onResponse, priority: -128, name: 'ToolbarListener.onResponse' }];
  }

  readonly onResponse = (event: ResponseEvent): void => {
    const { request, response } = event;
    const token = response.headers.get('x-debug-token');
    if (token !== undefined) {
      // A refused host leaves no host to link to: the reference's URL generator then writes the path alone.
      // So does any refused origin (conflicting forwarded headers): the request is a 400, and its host is
      // only the connection's view, never one to put in a link.
      const path = `/_profiler/${token}`;
      response.headers.set('X-Debug-Token-Link', request.origin.problem !== undefined ? request.origin.prefix + path : request.uriForPath(path));
    }
    if (!event.isMainRequest) return;
    // Every main response, as the reference's listener: the profiler's pages lose the application's policy,
    // the others let the toolbar's nonce through it.
    let nonces: ProfilerNonces | undefined;
    if (request.attributes.cspDisabled === true) removeCspHeaders(response.headers);
    else nonces = addProfilerNonces(response.headers);

    if (token === undefined || request.header('x-requested-with') === 'XMLHttpRequest') return;
    // In any case, as media types are (RFC 9110 §8.3.1): the reference's str_contains() left `Text/HTML` bare.
    if (response.isRedirection || !(response.headers.get('content-type') ?? '').toLowerCase().includes('html')) return;
    if ((request.attributes.format ?? 'html') !== 'html' || isAttachment(response.headers.get('content-disposition'))) return;
    // Past the reference, which has no such check: encoded bytes are not the page, and a gzip of stored
    // blocks holds `</body>` verbatim, so inserting there would break the download.
    if (isEncoded(response.headers.get('content-encoding'))) return;
    const profile = this.#profiler.store.get(token);
    if (profile === undefined) return;
    const body = response.body;
    // A stream is sent as it comes (the reference leaves its StreamedResponse alone too).
    if (typeof body !== 'string' && !Buffer.isBuffer(body)) return;
    const position = typeof body === 'string' ? lastClosingBody(body) : lastIndexOfIgnoringCase(body, '</body>');
    if (position === -1) return;
    // Host-relative URLs, like the reference's toolbar loader: the page's own origin serves them, even
    // when the public host named by a proxy is not reachable from where the page is viewed.
    const prefix = request.origin.prefix;
    const toolbar = render(Toolbar({ profile, prefix, styleNonce: nonces?.style }));
    // A text page stays text: node then writes its status line, headers and body as one string in one
    // buffer, where a Buffer body is a second buffer of the write (measured: the socket write of the seed
    // 404 took ~40 % longer, ~20 µs of CPU per request).
    const withToolbar =
      typeof body === 'string'
        ? `${body.slice(0, position)}\n${toolbar}\n${body.slice(position)}`
        : Buffer.concat([body.subarray(0, position), Buffer.from(`\n${asciiMarkup(toolbar)}\n`, 'latin1'), body.subarray(position)]);
    response.body = withToolbar;
    if (response.headers.has('content-length')) response.headers.set('Content-Length', Buffer.byteLength(withToolbar));
  };
}

// RFC 6266 §4.1: the disposition type is the token before any parameter. The reference looks for the text
// `attachment;`, so a bare `attachment` (a valid header) got the bar written into the downloaded file.
function isAttachment(contentDisposition: string | undefined): boolean {
  return contentDisposition !== undefined && (contentDisposition.split(';', 1)[0] ?? '').trim().toLowerCase() === 'attachment';
}

// Bytes may be in any charset (ISO-8859-1, Shift_JIS…): the toolbar's UTF-8 would be garbled there (a route
// `t_café` read `t_cafÃ©`), where a character reference reads the same in every charset built on ASCII.
function asciiMarkup(markup: string): string {
  return markup.replace(/[^\0-\x7f]/gu, (character) => `&#${character.codePointAt(0)};`);
}

function isEncoded(contentEncoding: string | undefined): boolean {
  return contentEncoding !== undefined && contentEncoding.trim() !== '' && contentEncoding.trim().toLowerCase() !== 'identity';
}

// Not toLowerCase() and an offset into its result: lowering some characters changes the text's length.
const CLOSING_BODY = /<\/body>/gi;
const CLOSING_BODY_LENGTH = '</body>'.length;

// The reference's strripos: the last `</body>` in any case. The exact spelling is found fast from the end;
// only what follows it can still hold a later one in another case.
function lastClosingBody(text: string): number {
  const exact = text.lastIndexOf('</body>');
  const from = exact === -1 ? 0 : exact + CLOSING_BODY_LENGTH;
  let last = exact;
  for (const match of text.slice(from).matchAll(CLOSING_BODY)) last = from + match.index;
  return last;
}

function lastIndexOfIgnoringCase(bytes: Buffer, needle: string): number {
  const exact = bytes.lastIndexOf(needle);
  const from = exact === -1 ? 0 : exact + needle.length;
  // latin1 maps each byte to one character, so offsets in the text are offsets in the bytes.
  const later = bytes.subarray(from).toString('latin1').toLowerCase().lastIndexOf(needle);
  return later === -1 ? exact : from + later;
}
