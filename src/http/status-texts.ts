import { STATUS_CODES } from 'node:http';

const UNKNOWN = 'unknown status';

// node:http knows the IANA reason phrases; the few it spells differently from Symfony's Response::$statusTexts
// (which the reference prints on the status line, in titles and in "The server returned a ..." lines) are
// overridden here, and the one it knows that Symfony does not (509) is unknown, as there.
const OVERRIDES: Record<number, string> = {
  413: 'Content Too Large',
  418: "I'm a teapot",
  422: 'Unprocessable Content',
  509: UNKNOWN,
};

/** The reason phrase the reference gives a status: Symfony's table, `unknown status` for a code it lacks. */
export function statusText(status: number): string {
  return OVERRIDES[status] ?? STATUS_CODES[status] ?? UNKNOWN;
}

/**
 * The status text of an error page (Symfony's FlattenException): the same phrase, but for a code Symfony's
 * table lacks the page says `Whoops, looks like something went wrong.` where the status line says
 * `unknown status`.
 */
export function errorStatusText(status: number): string {
  const text = statusText(status);
  return text === UNKNOWN ? 'Whoops, looks like something went wrong.' : text;
}
