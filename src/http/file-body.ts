import { createReadStream, type ReadStream } from 'node:fs';

/**
 * A file as a response body, opened only when it is sent: a conditional request answered 304, a HEAD
 * request or a range chosen after the response was made (see prepareFileResponse) never opens it, or opens
 * only the bytes asked for. `size` and `modified` are the file's when the response was made.
 */
export class FileBody implements AsyncIterable<Uint8Array> {
  readonly path: string;
  readonly size: number;
  readonly modified: Date;
  /** The bytes sent, inclusive; the whole file unless a range narrowed it. */
  readonly start: number;
  readonly end: number;
  #stream: ReadStream | undefined;

  constructor(path: string, size: number, modified: Date, range?: { start: number; end: number }) {
    this.path = path;
    this.size = size;
    this.modified = modified;
    this.start = range?.start ?? 0;
    this.end = range?.end ?? size - 1;
  }

  /** Bytes sent: the range's length. */
  get length(): number {
    return Math.max(0, this.end - this.start + 1);
  }

  /** The same file, only the bytes from `start` to `end` inclusive. */
  slice(start: number, end: number): FileBody {
    return new FileBody(this.path, this.size, this.modified, { start, end });
  }

  [Symbol.asyncIterator](): AsyncIterator<Uint8Array> {
    // An empty file reads nothing: createReadStream would read from `start` to whatever end the file has now.
    if (this.length === 0) return emptyChunks();
    this.#stream = createReadStream(this.path, { start: this.start, end: this.end });
    return this.#stream[Symbol.asyncIterator]();
  }

  /** Closes the file if it was opened (see discardBodyStream). */
  destroy(): void {
    this.#stream?.destroy();
  }
}

async function* emptyChunks(): AsyncGenerator<Uint8Array> {}
