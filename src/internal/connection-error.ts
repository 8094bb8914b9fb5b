import type { EventEmitter } from 'node:events';

/**
 * What a Redis connection last reported (a refused connection, NOAUTH, WRONGPASS…), until it is ready
 * again: commands failing meanwhile say only that they ran out of retries or could not be sent. The
 * 'error' listener is also what keeps such an event from ending the process.
 */
export function trackConnectionError(connection: EventEmitter): () => Error | undefined {
  let last: Error | undefined;
  connection.on('error', (error: Error) => (last = error));
  connection.on('ready', () => (last = undefined));
  return () => last;
}

/** `error`, with what the connection said appended (and the error as cause) unless it says it already. */
export function withConnectionCause(error: unknown, said: Error | undefined): unknown {
  const message = error instanceof Error ? error.message : String(error);
  if (said === undefined || message.includes(said.message)) return error;
  return new Error(`${message} (the connection said: ${said.message})`, { cause: error });
}
