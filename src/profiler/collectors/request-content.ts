import { mayHoldSecret, maskSecrets } from '../../config/mask-secrets.js';
import { isMultipart } from '../../http/multipart.js';
import type { Request } from '../../http/request.js';
import { MAX_SHOWN_BYTES } from './post-parameters.js';

/**
 * The body of a request as the request panel shows it (Symfony's "Request Content"): JSON pretty-printed
 * with its secret-named values masked; other text as sent unless it may hold a secret (nothing tells where
 * one would be in free text, so such a text is withheld); otherwise why it is not shown (a form body shows
 * as POST parameters). Undefined without a body.
 */
export type RequestContent =
  | { text: string }
  | { withheld: 'form' | 'unread' | 'tooLarge' | 'tooDeep' | 'binary' | 'secret'; bytes: number | undefined }
  | undefined;

const JSON_TYPE = /^application\/(?:[\w.+-]+\+)?json\s*(?:;|$)/i;
const TEXT_TYPE = /^(?:text\/|application\/(?:[\w.+-]+\+)?xml\s*(?:;|$))/i;
const FORM_TYPE = /^application\/x-www-form-urlencoded/i;

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
    return { withheld: 'unread', bytes: declared === undefined ? undefined : Number(declared) };
  }
  if (body.length === 0) return undefined;
  if (body.length > MAX_SHOWN_BYTES) return { withheld: 'tooLarge', bytes: body.length };
  if (JSON_TYPE.test(type)) {
    const json = parseJson(body.toString('utf8'));
    if (json !== undefined) {
      // `[[[…]]]` thousands deep parses, but walking it to mask it would overflow the stack.
      try {
        return { text: JSON.stringify(maskSecrets(json.value), null, 4) };
      } catch {
        return { withheld: 'tooDeep', bytes: body.length };
      }
    }
  }
  if (!TEXT_TYPE.test(type) && !JSON_TYPE.test(type)) return { withheld: 'binary', bytes: body.length };
  const text = body.toString('utf8');
  return mayHoldSecret(text) ? { withheld: 'secret', bytes: body.length } : { text };
}

function parseJson(text: string): { value: unknown } | undefined {
  try {
    return { value: JSON.parse(text) as unknown };
  } catch {
    return undefined;
  }
}
