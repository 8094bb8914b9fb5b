import { isMultipart } from '../../http/multipart.js';
import type { Request } from '../../http/request.js';
import { MAX_SHOWN_BYTES, notRead, parsedFormOf } from './post-parameters.js';

/** A file of a multipart form as the request panel lists it: what the client said of it, and its size. */
export interface UploadedFileSummary {
  field: string;
  filename: string;
  type: string;
  size: number;
}

/**
 * Symfony's Uploaded Files: the files of a multipart body the application read (`unread` when it did not,
 * `failed` when its read failed; the profiler reads no body itself), undefined for a request that is no multipart form. Their bytes are
 * never recorded.
 */
export function collectUploadedFiles(request: Request): UploadedFileSummary[] | 'unread' | 'failed' | 'tooLarge' | undefined {
  if (!isMultipart(request)) return undefined;
  const form = parsedFormOf(request);
  if (form === undefined) return notRead(request);
  // Names and types are the client's: a form of many long file names is bounded as its fields are.
  let size = 0;
  for (const { field, filename, type } of form.files) size += field.length + filename.length + type.length;
  if (size > MAX_SHOWN_BYTES) return 'tooLarge';
  return form.files.map(({ field, filename, type, size: bytes }) => ({ field, filename, type, size: bytes }));
}
