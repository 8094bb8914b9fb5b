import { mkdirSync, openSync } from 'node:fs';
import { dirname } from 'node:path';
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
  // A log that cannot be written (disk full, read-only var/) must never take the server down: the failure
  // is said once on stderr and its lines are dropped.
  let failing = false;
  const report = (error: unknown): void => {
    if (failing) return;
    failing = true;
    const reason = error instanceof Error ? error.message : String(error);
    try {
      process.stderr.write(`keel: cannot write the log ${typeof dest === 'string' ? dest : `fd ${dest}`} (${reason}); its lines are dropped\n`);
    } catch {
      // stderr itself is gone: nothing more to say
    }
  };
  let boom: ReturnType<typeof pino.destination> | undefined;
  try {
    // The file is opened here, not by sonic-boom: a sync sonic-boom whose open failed spins on every write.
    let fd = dest;
    if (typeof dest === 'string') {
      mkdirSync(dirname(dest), { recursive: true });
      fd = openSync(dest, 'a') as 1 | 2;
    }
    boom = pino.destination({ fd: fd as number, sync, minLength: sync ? 0 : 1 });
    boom.on('error', report);
  } catch (error) {
    report(error);
  }
  const flush = (): Promise<void> =>
    new Promise((resolve) => {
      if (sync || boom === undefined || failing) return resolve();
      try {
        boom.flush(() => resolve());
      } catch {
        resolve();
      }
    });
  // A record logged after close() (a late terminate listener at shutdown) is dropped, never a crash.
  let closed = false;
  return {
    write(line) {
      if (closed || failing || boom === undefined) return;
      try {
        boom.write(line);
      } catch (error) {
        report(error);
      }
    },
    flush,
    async close() {
      await flush();
      closed = true;
      // Standard streams stay open: other code still writes to them.
      if (boom !== undefined && failing) {
        // A writer that failed may still hold a retry; nothing more will be written through it.
        boom.destroy();
        return;
      }
      if (typeof dest === 'string' && boom !== undefined) {
        const stream = boom;
        await new Promise<void>((resolve) => {
          stream.once('close', () => resolve());
          stream.once('error', () => resolve());
          stream.end();
        });
      }
    },
  };
}

/** Adapts a caller's writer (a test's collector, a stream) to the destination interface. */
export function wrapWriter(writer: LineWriter): LogDestination {
  return { write: (line) => writer.write(line), flush: async () => {}, close: async () => {} };
}
