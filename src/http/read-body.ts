import { urlencodedFields } from './form-urlencoded.js';
import { BadRequestHttpException } from './http-exception.js';
import { scanJson } from './json-text.js';
import { isMultipart, readMultipart, type UploadedFile } from './multipart.js';
import type { Request } from './request.js';

/**
 * The body as JSON, as Symfony's `Request::toArray()` reads it: an object or a list, or a 400
 * (`KEEL_ERR_BAD_REQUEST`) with the reference's messages — `Request body is empty.`, `Could not decode
 * request body.`, `JSON content was expected to decode to an array, "int" returned.` A body over the size
 * limit stays its 413, a client gone its 400: they are not JSON errors. An integer no JavaScript number holds
 * exactly (beyond ±2^53 − 1) comes as the string of its digits, as JSON_BIGINT_AS_STRING gives it, not rounded.
 * @example const { email } = (await readJson(request)) as { email?: unknown };
 */
export async function readJson(request: Request): Promise<Record<string, unknown> | unknown[]> {
  const bytes = await request.body();
  if (bytes.length === 0) throw new BadRequestHttpException('Request body is empty.');
  let content: unknown;
  try {
    // As json_decode: bytes that are no UTF-8 fail it (toString would have made them U+FFFD), and so does
    // nesting deeper than its default depth of 512.
    const { depth, text } = scanJson(STRICT_UTF8.decode(bytes));
    if (depth > MAX_JSON_DEPTH) throw new RangeError(`Maximum stack depth (${MAX_JSON_DEPTH}) exceeded`);
    content = JSON.parse(text);
  } catch (error) {
    throw new BadRequestHttpException('Could not decode request body.', { cause: error });
  }
  if (typeof content !== 'object' || content === null) {
    throw new BadRequestHttpException(`JSON content was expected to decode to an array, "${phpTypeName(content)}" returned.`);
  }
  return content as Record<string, unknown> | unknown[];
}

// ignoreBOM: a leading BOM stays in the text, which JSON.parse refuses as json_decode does.
const STRICT_UTF8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });
// json_decode's default depth: arrays and objects nested 512 deep decode, 513 do not.
const MAX_JSON_DEPTH = 512;

/**
 * The fields of an HTML form body, Symfony's `$request->request`: `application/x-www-form-urlencoded`, or
 * the text fields of `multipart/form-data` (its files: readFiles()); empty for any other content type. Text
 * is read in the `charset` the Content-Type (or a multipart part's) names, UTF-8 without one.
 * @example const email = (await readForm(request)).get('email');
 */
export async function readForm(request: Request): Promise<URLSearchParams> {
  if (isMultipart(request)) return (await readMultipart(request)).fields;
  const type = (request.header('content-type') ?? '').toLowerCase();
  if (!type.startsWith('application/x-www-form-urlencoded')) return new URLSearchParams();
  return urlencodedFields(await request.body(), type);
}

/**
 * The files of a `multipart/form-data` body, Symfony's `$request->files`, in the order sent; empty for any
 * other content type. A malformed multipart body is a 400 (`KEEL_ERR_BAD_REQUEST`), a larger one than
 * BODY_LIMIT a 413.
 * @example const [avatar] = (await readFiles(request)).filter((file) => file.field === 'avatar');
 */
export async function readFiles(request: Request): Promise<UploadedFile[]> {
  return isMultipart(request) ? (await readMultipart(request)).files : [];
}

// PHP's get_debug_type() of a decoded JSON scalar.
function phpTypeName(value: unknown): string {
  if (value === null) return 'null';
  if (typeof value === 'boolean') return 'bool';
  if (typeof value === 'number') return Number.isInteger(value) ? 'int' : 'float';
  return 'string';
}
