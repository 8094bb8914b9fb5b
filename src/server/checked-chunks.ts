import { describeType } from '../internal/describe-type.js';

/**
 * The chunks of a streamed body's async iterable, each checked to be something a socket can write. node's
 * own refusal comes from the write, on the response's side: pipeline() then closes the connection as if the
 * body had ended, which a client framing it by the close (HTTP/1.0, nginx's default to its upstreams) reads
 * as complete. Refused here, the wrong chunk is the source's failure, whose connection is reset.
 */
export async function* checkedChunks(source: AsyncIterable<unknown>): AsyncGenerator<string | Uint8Array> {
  for await (const chunk of source) {
    if (typeof chunk !== 'string' && !(chunk instanceof Uint8Array)) {
      throw new TypeError(
        `A streamed response body yields strings, Buffers or Uint8Arrays, not ${describeType(chunk)}: write a server-sent event with serverSentEvent(), other data with JSON.stringify().`,
      );
    }
    yield chunk;
  }
}
