import type { EventEmitter } from 'node:events';

/** A connection keel opened itself: ioredis's Redis, as far as these functions use it. */
export interface OwnedConnection extends EventEmitter {
  disconnect(reconnect?: boolean): void;
}

/**
 * What a Redis connection last reported (a refused connection, NOAUTH, WRONGPASS…), until it is ready
 * again: commands failing meanwhile say only that they ran out of retries or could not be sent. The
 * 'error' listener is also what keeps such an event from ending the process.
 *
 * A connection whose SELECT of the URL's database failed (`redis://…/99` on a server with 16) is ended
 * for good: ioredis reports the error and goes on, ready, on database 0, where another application's keys
 * may be. Ended, the storage fails as when Redis is unreachable, saying why (`ERR DB index is out of range`).
 */
export function trackConnectionError(connection: OwnedConnection): () => Error | undefined {
  let last: Error | undefined;
  // What ended the connection for good: it stays the reason, whatever fails after it.
  let ended: Error | undefined;
  connection.on('error', (error: Error & { command?: { name?: unknown } }) => {
    last = error;
    if (error.command?.name !== 'select' || ended !== undefined) return;
    ended = error;
    connection.disconnect(false);
  });
  connection.on('ready', () => (last = undefined));
  return () => ended ?? last;
}

/** `error`, with what the connection said appended (and the error as cause) unless it says it already. */
export function withConnectionCause(error: Error, said: Error | undefined): Error;
export function withConnectionCause(error: unknown, said: Error | undefined): unknown;
export function withConnectionCause(error: unknown, said: Error | undefined): unknown {
  const message = error instanceof Error ? error.message : String(error);
  if (said === undefined || message.includes(said.message)) return error;
  return new Error(`${message} (the connection said: ${said.message})`, { cause: error });
}
