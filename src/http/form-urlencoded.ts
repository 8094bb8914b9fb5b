import { urldecode } from './normalize-query.js';

/**
 * The fields of an `application/x-www-form-urlencoded` body, in order. Its escaped bytes are text in the
 * charset the Content-Type names (`charset=ISO-8859-1`: `Ren%E9` is `René`), as busboy reads each part of a
 * multipart form, UTF-8 without one. URLSearchParams alone took every body for UTF-8, and a byte that is
 * none became U+FFFD, the client's text lost. A label the platform does not know is read as UTF-8, as before.
 * @example urlencodedFields(Buffer.from('name=Ren%E9'), 'application/x-www-form-urlencoded; charset=latin1').get('name') // 'René'
 */
export function urlencodedFields(bytes: Buffer, contentType: string): URLSearchParams {
  const charset = CHARSET.exec(contentType);
  const decoder = decoderFor(charset?.[1] ?? charset?.[2]);
  if (decoder === undefined) return new URLSearchParams(bytes.toString('utf8'));
  const fields = new URLSearchParams();
  // latin1: one character per byte, so that each `%XX` is turned back into its byte before decoding.
  for (const pair of bytes.toString('latin1').split('&')) {
    if (pair === '') continue;
    const equals = pair.indexOf('=');
    fields.append(decode(equals === -1 ? pair : pair.slice(0, equals), decoder), equals === -1 ? '' : decode(pair.slice(equals + 1), decoder));
  }
  return fields;
}

const CHARSET = /;\s*charset\s*=\s*(?:"([^"]*)"|([^;\s]*))/i;

// No decoder for UTF-8 (URLSearchParams reads it already) nor for a label TextDecoder refuses; UTF-16 is read
// as UTF-8, as the URL standard's form parser reads it: its escapes are no pairs of bytes.
function decoderFor(label: string | undefined): TextDecoder | undefined {
  if (label === undefined) return undefined;
  try {
    const decoder = new TextDecoder(label);
    return decoder.encoding === 'utf-8' || decoder.encoding.startsWith('utf-16') ? undefined : decoder;
  } catch {
    return undefined;
  }
}

function decode(component: string, decoder: TextDecoder): string {
  return decoder.decode(Buffer.from(urldecode(component), 'latin1'));
}
