import { STATUS_CODES } from 'node:http';

// node:http knows the IANA reason phrases; the few it spells differently from Symfony's Response::$statusTexts
// (which the reference prints in titles and in "The server returned a ..." lines) are overridden here.
const OVERRIDES: Record<number, string> = {
  413: 'Content Too Large',
  418: "I'm a teapot",
  422: 'Unprocessable Content',
};

export function statusText(status: number): string {
  return OVERRIDES[status] ?? STATUS_CODES[status] ?? 'Unknown status';
}
