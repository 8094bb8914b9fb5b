import { describeType } from '../internal/describe-type.js';

/**
 * A chunk of a streamed body's async iterable, checked to be something a socket can write. node's own
 * refusal comes from the write, on the response's side: pipeline() then closes the connection as if the
 * body had ended, which a client framing it by the close (HTTP/1.0, nginx's default to its upstreams) reads
 * as complete. Refused here, the wrong chunk is the source's failure, whose connection is reset.
 */
export function checkedChunk(chunk: unknown): string | Uint8Array {
  if (typeof chunk === 'string' || chunk instanceof Uint8Array) return chunk;
  throw new TypeError(
    `A streamed response body yields strings, Buffers or Uint8Arrays, not ${describeType(chunk)}: write a server-sent event with serverSentEvent(), other data with JSON.stringify().`,
  );
}
