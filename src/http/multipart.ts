import busboy from 'busboy';
import { BadRequestHttpException } from './http-exception.js';
import { partsNamingAFile } from './multipart-file-parts.js';
import type { Request } from './request.js';

/**
 * A file of a `multipart/form-data` body, Symfony's UploadedFile: what the client said of it (its name,
 * reduced to the last path segment as getClientOriginalName() does, and its type) and its bytes. The body
 * is read in memory under BODY_LIMIT, so a file is at most that large.
 */
export interface UploadedFile {
  /** The form field it was sent in. */
  field: string;
  filename: string;
  /** The type the client declared; trust it no more than the name. */
  type: string;
  size: number;
  data: Buffer;
}

export interface MultipartBody {
  fields: URLSearchParams;
  files: UploadedFile[];
}

// Parts beyond these are refused (400): a form has a few dozen fields, not thousands. A field's value is
// bounded by BODY_LIMIT alone: busboy's own 1 MiB default would cut a longer one short without a word.
const LIMITS = { fields: 1000, parts: 1000, fieldNameSize: 200, headerPairs: 100, fieldSize: Number.POSITIVE_INFINITY };

// One parse per request, whichever helper asks first (readForm for the fields, readFiles for the files).
const parsed = new WeakMap<Request, Promise<MultipartBody>>();
const settled = new WeakMap<Request, MultipartBody>();

export function isMultipart(request: Request): boolean {
  return (request.header('content-type') ?? '').toLowerCase().startsWith('multipart/form-data');
}

/** The fields and files of a `multipart/form-data` body; a 400 (`KEEL_ERR_BAD_REQUEST`) for one that is not well formed. */
export function readMultipart(request: Request): Promise<MultipartBody> {
  let body = parsed.get(request);
  if (body === undefined) {
    // No body at all is no form to decode, as PHP reads it (busboy answered "Unexpected end of form"): a
    // client whose library sets the form's type on a request it sends without one gets empty fields, not a 400.
    body = request.body().then((bytes) => (bytes.length === 0 ? { fields: new URLSearchParams(), files: [] } : parse(request.header('content-type') ?? '', bytes)));
    parsed.set(request, body);
    body.then((result) => settled.set(request, result), () => undefined);
  }
  return body;
}

/** What readMultipart() gave, once it has: for a reader that cannot wait for it (the profiler). */
export function parsedMultipart(request: Request): MultipartBody | undefined {
  return settled.get(request);
}

function parse(contentType: string, bytes: Buffer): Promise<MultipartBody> {
  return new Promise((resolve, reject) => {
    const fields = new URLSearchParams();
    const files: Promise<UploadedFile>[] = [];
    const refuse = (reason: string): void => reject(new BadRequestHttpException(`Could not decode the multipart body: ${reason}.`, { code: 'KEEL_ERR_BAD_REQUEST' }));
    let parser: busboy.Busboy;
    try {
      // Browsers send file names as raw UTF-8 inside the quotes; busboy would read them as Latin-1.
      parser = busboy({ headers: { 'content-type': contentType }, limits: LIMITS, defParamCharset: 'utf8' });
    } catch (error) {
      refuse(reasonOf(error as Error));
      return;
    }
    // A part without a name is left out, as PHP leaves it out (busboy hands it over with an undefined name);
    // a value in a charset busboy cannot decode comes as undefined, which is no value to store.
    // busboy's parts come one after the other, each a field or a file event, in the body's order.
    const namesAFile = partsNamingAFile(contentType, bytes);
    let part = 0;
    parser.on('field', (name: string | undefined, value: string | undefined) => {
      part++;
      if (name === undefined) return;
      if (value === undefined) refuse(`the field "${name}" is in a charset that cannot be decoded`);
      else fields.append(name, value);
    });
    parser.on('file', (field: string | undefined, stream, info) => {
      // `filename=""` (an empty file input) is a file without a name, which busboy reads as no name.
      const filename = info.filename ?? (namesAFile[part] === true ? '' : undefined);
      const { mimeType } = info;
      part++;
      if (field === undefined) {
        stream.resume();
        return;
      }
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      // RFC 7578 §4.2: a part is a file when it names one. busboy also takes a part without a filename but
      // typed application/octet-stream for a file; PHP, and so Symfony, keep it a field.
      if (filename === undefined) {
        stream.on('end', () => fields.append(field, Buffer.concat(chunks).toString('utf8')));
        stream.on('error', () => undefined);
        return;
      }
      // A file's stream may end after the parser closes: each is awaited.
      files.push(
        new Promise((done, fail) => {
          stream.on('end', () => {
            const data = Buffer.concat(chunks);
            done({ field, filename: lastSegment(filename ?? ''), type: mimeType, size: data.length, data });
          });
          // A body cut short fails the file's stream too: unheard, that error would stop the process.
          stream.on('error', fail);
        }),
      );
    });
    for (const limit of ['partsLimit', 'filesLimit', 'fieldsLimit'] as const) parser.on(limit, () => refuse(`more than ${LIMITS.parts} parts`));
    parser.on('error', (error: Error) => refuse(reasonOf(error)));
    parser.on('close', () => {
      Promise.all(files).then(
        // An empty file input is sent as a part with an empty name and no bytes: no upload, as PHP's
        // UPLOAD_ERR_NO_FILE, which Symfony's FileBag leaves out.
        (uploaded) => resolve({ fields, files: uploaded.filter((file) => file.filename !== '' || file.size > 0) }),
        (error: Error) => refuse(reasonOf(error)),
      );
    });
    try {
      parser.end(bytes);
    } catch (error) {
      // A body cut short throws from end() itself.
      refuse(reasonOf(error as Error));
    }
  });
}

// `C:\Users\ada\report.pdf` or `../../etc/passwd` from a client: the name alone.
function lastSegment(name: string): string {
  return name.slice(Math.max(name.lastIndexOf('/'), name.lastIndexOf('\\')) + 1);
}

// busboy's "Unexpected end of form." as the end of a sentence: "…: unexpected end of form."
function reasonOf(error: Error): string {
  return error.message.replace(/\.$/, '').replace(/^[A-Z]/, (first) => first.toLowerCase());
}
