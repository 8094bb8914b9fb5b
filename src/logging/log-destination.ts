import pino from 'pino';

/** Where formatted lines go: a pino (sonic-boom) destination, or any object with `write` (tests). */
export interface LineWriter {
  write(line: string): unknown;
}

export interface LogDestination extends LineWriter {
  /** Resolves once every line written so far has reached the file descriptor. */
  flush(): Promise<void>;
  close(): Promise<void>;
}

/**
 * A sonic-boom destination, pino's own writer. Sync mode writes each line before returning (the dev log,
 * so that it is complete the moment a response is sent); async mode queues writes off the event loop and
 * `flush()` waits for them. A minLength of 1 keeps writes immediate while letting flush() wait for drain.
 */
export function openDestination(dest: string | 1 | 2, { sync }: { sync: boolean }): LogDestination {
  const boom = pino.destination({ dest, sync, mkdir: typeof dest === 'string', append: true, minLength: sync ? 0 : 1 });
  const flush = (): Promise<void> =>
    new Promise((resolve) => {
      if (sync) return resolve();
      try {
        boom.flush(() => resolve());
      } catch {
        resolve();
      }
    });
  // A record logged after close() (a late terminate listener at shutdown) is dropped, never a crash.
  let closed = false;
  return {
    write: (line) => closed || boom.write(line),
    flush,
    async close() {
      await flush();
      closed = true;
      // Standard streams stay open: other code still writes to them.
      if (typeof dest === 'string') {
        await new Promise<void>((resolve) => {
          boom.once('close', () => resolve());
          boom.end();
        });
      }
    },
  };
}

/** Adapts a caller's writer (a test's collector, a stream) to the destination interface. */
export function wrapWriter(writer: LineWriter): LogDestination {
  return { write: (line) => writer.write(line), flush: async () => {}, close: async () => {} };
}
