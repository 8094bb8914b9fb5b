import { headerText } from './header-text.js';
import type { Request } from './request.js';

/** One message of a `text/event-stream` body; see serverSentEvent(). */
export interface ServerSentEvent {
  /**
   * The event's data: each of its lines (split at `\r\n`, `\r` or `\n`) becomes a `data:` line. Without it the
   * client dispatches nothing (an `event` alone reaches no listener); `''` dispatches an event with empty data.
   */
  data?: string;
  /** The event's type (`addEventListener(type)` on the client; `message` when none is given). */
  event?: string;
  /** The id the client sends back as `Last-Event-ID` when it reconnects. */
  id?: string;
  /** The client's reconnection delay, in milliseconds. */
  retry?: number;
  /** A comment the client ignores: a heartbeat that keeps proxies from closing an idle stream. */
  comment?: string;
}

// Any of the three line ends a client splits a stream at (WHATWG HTML, "Interpreting an event stream").
const LINE_END = /\r\n|\r|\n/;
const LINE_BREAK = /[\r\n]/;

/**
 * A message of server-sent events, written as the WHATWG HTML standard's event stream format and ended by
 * its blank line, for a `text/event-stream` body to yield. Data and comments holding line ends become
 * several lines, so that a value cannot add a field or end the event early. A line end in the event type
 * or the id, a NUL in the id (which the client would ignore, keeping the previous id), or a retry that is
 * no whole number of milliseconds is refused with a TypeError: a client cannot read them back as given.
 * @example yield serverSentEvent({ event: 'price', id: String(seq), data: JSON.stringify(price) });
 */
export function serverSentEvent(message: ServerSentEvent): string {
  const { data, event, id, retry, comment } = message;
  let text = '';
  if (comment !== undefined) for (const line of comment.split(LINE_END)) text += `: ${line}\n`;
  if (event !== undefined) text += `event: ${singleLine('event type', event)}\n`;
  if (id !== undefined) {
    if (id.includes('\0')) throw new TypeError(`A server-sent event's id cannot hold a NUL character: the client would ignore it. Given: ${JSON.stringify(id)}.`);
    text += `id: ${singleLine('id', id)}\n`;
  }
  if (retry !== undefined) {
    if (!Number.isSafeInteger(retry) || retry < 0) throw new TypeError(`A server-sent event's retry is a whole number of milliseconds, 0 or more: ${String(retry)} given.`);
    text += `retry: ${retry}\n`;
  }
  if (data !== undefined) for (const line of data.split(LINE_END)) text += `data: ${line}\n`;
  return `${text}\n`;
}

function singleLine(field: string, value: string): string {
  // A line end would start a field of the client's choosing, or end the event there.
  if (LINE_BREAK.test(value)) throw new TypeError(`A server-sent event's ${field} cannot hold a line break (\\r or \\n). Given: ${JSON.stringify(value)}.`);
  return value;
}

/**
 * The id of the last event a reconnecting client got (its `Last-Event-ID` header), as the text the
 * application gave serverSentEvent(): the client sends it in UTF-8, which node:http hands over one character
 * per byte, so that `request.header('last-event-id')` reads an id `prix-€` as `prix-â\u0082¬` and matches no
 * event. Undefined on a first connection.
 * @example const since = lastEventId(request); // replay the events after it
 */
export function lastEventId(request: Request): string | undefined {
  const value = request.header('last-event-id');
  return value === undefined ? undefined : headerText(value);
}
