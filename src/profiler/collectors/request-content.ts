import { mayHoldSecret, maskSecrets } from '../../config/mask-secrets.js';
import { isMultipart } from '../../http/multipart.js';
import type { Request } from '../../http/request.js';
import { bodyReadFailed, MAX_SHOWN_BYTES } from './post-parameters.js';

/**
 * The body of a request as the request panel shows it (Symfony's "Request Content"): JSON with its
 * secret-named values masked, kept compact and pretty-printed when shown (see requestContentText); other
 * text as sent unless it may hold a secret (nothing tells where one would be in free text, so such a text is
 * withheld); otherwise why it is not shown (a form body shows as POST parameters). Undefined without a body.
 */
export type RequestContent =
  | { text: string }
  | { json: string }
  | { withheld: 'form' | 'unread' | 'failed' | 'tooLarge' | 'tooDeep' | 'binary' | 'secret'; bytes: number | undefined }
  | undefined;

const JSON_TYPE = /^application\/(?:[\w.+-]+\+)?json\s*(?:;|$)/i;
const TEXT_TYPE = /^(?:text\/|application\/(?:[\w.+-]+\+)?xml\s*(?:;|$))/i;
const FORM_TYPE = /^application\/x-www-form-urlencoded/i;

// Pretty-printing indents every line four spaces per level: `[[[…]]]` 1 000 deep is 2 KB sent and 4 MB
// printed, and 32 of them side by side in one 64 KiB body printed 128 MB, holding the event loop for a
// second and the heap for 400 MB. A body whose lines would be indented by more than this in all is
// withheld as too deep; ordinary bodies of 64 KiB indent a few hundred KB at most, printed only when shown.
const MAX_INDENT_BYTES = 16 * MAX_SHOWN_BYTES;

export function collectRequestContent(request: Request): RequestContent {
  const type = request.header('content-type') ?? '';
  const body = request.bufferedBody;
  if (FORM_TYPE.test(type) || isMultipart(request)) return body?.length === 0 ? undefined : { withheld: 'form', bytes: body?.length };
  if (body === undefined) {
    // The profiler never reads a body itself: a route may leave one unread on purpose, and reading it
    // would wait on the client.
    const declared = request.header('content-length');
    const chunked = request.header('transfer-encoding') !== undefined;
    if ((declared === undefined || declared === '0') && !chunked) return undefined;
    return { withheld: bodyReadFailed(request) ? 'failed' : 'unread', bytes: declared === undefined ? undefined : Number(declared) };
  }
  if (body.length === 0) return undefined;
  if (body.length > MAX_SHOWN_BYTES) return { withheld: 'tooLarge', bytes: body.length };
  if (JSON_TYPE.test(type)) {
    const json = parseJson(body.toString('utf8'));
    if (json !== undefined) {
      if (!indentsWithin(json.value, MAX_INDENT_BYTES)) return { withheld: 'tooDeep', bytes: body.length };
      // `[[[…]]]` thousands deep parses, but walking it to mask it would overflow the stack. Compact: printed,
      // a body of 64 KiB can take a MiB, and the profiler keeps its newest 500 records in memory.
      try {
        return { json: JSON.stringify(maskSecrets(json.value)) };
      } catch {
        return { withheld: 'tooDeep', bytes: body.length };
      }
    }
  }
  if (!TEXT_TYPE.test(type) && !JSON_TYPE.test(type)) return { withheld: 'binary', bytes: body.length };
  const text = body.toString('utf8');
  return mayHoldSecret(text) ? { withheld: 'secret', bytes: body.length } : { text };
}

/** The text the request panel shows of a content that is shown: its JSON pretty-printed, as Symfony's panel does. */
export function requestContentText(content: { text: string } | { json: string }): string {
  return 'json' in content ? JSON.stringify(JSON.parse(content.json), null, 4) : content.text;
}

function parseJson(text: string): { value: unknown } | undefined {
  try {
    return { value: JSON.parse(text) as unknown };
  } catch {
    return undefined;
  }
}

/**
 * Whether JSON.stringify(value, null, 4) indents its lines by at most `budget` bytes in all, found without
 * printing it: a container's items are one line each a level deeper, its closing bracket one at its own
 * level. A loop, not recursion: the value may be nested deeper than the stack allows.
 */
function indentsWithin(value: unknown, budget: number): boolean {
  const pending: Array<[unknown, number]> = [[value, 0]];
  let spent = 0;
  for (let next = pending.pop(); next !== undefined; next = pending.pop()) {
    const [item, depth] = next;
    if (item === null || typeof item !== 'object') continue;
    const items: unknown[] = Array.isArray(item) ? item : Object.values(item);
    if (items.length === 0) continue;
    spent += 4 * ((depth + 1) * items.length + depth);
    if (spent > budget) return false;
    for (const inner of items) pending.push([inner, depth + 1]);
  }
  return true;
}
