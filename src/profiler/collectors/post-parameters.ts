import { isMultipart, parsedMultipart, type MultipartBody } from '../../http/multipart.js';
import { urlencodedFields } from '../../http/form-urlencoded.js';
import type { Request } from '../../http/request.js';
import { maskParameters } from './mask.js';

/**
 * The fields of a form body, secrets masked; `unread` for a form body the application never read (the
 * profiler does not read it in its place: a route may leave a body unread on purpose, and reading it
 * would wait on the client); `failed` for one whose read failed (over the body limit, the client gone);
 * `tooLarge` for fields over MAX_SHOWN_BYTES; undefined without a form body.
 */
export type PostParameters = Record<string, string | string[]> | 'unread' | 'failed' | 'tooLarge' | undefined;

// Every record keeps its fields, and the memory store keeps 500 records: a 1 MiB form (BODY_LIMIT) in
// each would hold 500 MiB.
export const MAX_SHOWN_BYTES = 64 * 1024;

/** Symfony's `$request->request`: a urlencoded body, or the text fields of a multipart one. */
export function collectPostParameters(request: Request): PostParameters {
  if (isMultipart(request)) {
    const fields = parsedFormOf(request)?.fields;
    if (fields === undefined) return notRead(request);
    let size = 0;
    for (const [name, value] of fields) size += name.length + value.length;
    return size > MAX_SHOWN_BYTES ? 'tooLarge' : maskParameters(fields);
  }
  if (!(request.header('content-type') ?? '').toLowerCase().startsWith('application/x-www-form-urlencoded')) return undefined;
  const body = request.bufferedBody;
  if (body === undefined) return request.header('content-length') === '0' ? {} : notRead(request);
  // Read as readForm() read them, in the charset the Content-Type names: the panel shows what the application got.
  return body.length > MAX_SHOWN_BYTES ? 'tooLarge' : maskParameters(urlencodedFields(body, request.header('content-type') ?? ''));
}

/** Whether the application's read of the body failed; an error sub-request's parent read it. */
export function bodyReadFailed(request: Request): boolean {
  for (let from: Request | undefined = request; from !== undefined; from = from.parent) if (from.bodyReadFailed) return true;
  return false;
}

/** Why a form body has nothing to show: nobody read it, or its read failed. */
export function notRead(request: Request): 'unread' | 'failed' {
  return bodyReadFailed(request) ? 'failed' : 'unread';
}

/** What readForm() or readFiles() parsed of a multipart body, undefined when nothing read it. */
export function parsedFormOf(request: Request): MultipartBody | undefined {
  // An error sub-request is a copy of the failed request: the form was parsed for the original.
  for (let from: Request | undefined = request; from !== undefined; from = from.parent) {
    const body = parsedMultipart(from);
    if (body !== undefined) return body;
  }
  return undefined;
}
