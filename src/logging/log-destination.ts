import { fstatSync, openSync, readSync, writeSync } from 'node:fs';
import { dirname } from 'node:path';
import pino from 'pino';
import { makeDirSync } from '../internal/make-dir.js';

/** Where formatted lines go: a pino (sonic-boom) destination, or any object with `write` (tests). */
export interface LineWriter {
  write(line: string): unknown;
}

export interface LogDestination extends LineWriter {
  /** Resolves once every line written so far has reached the file descriptor. */
  flush(): Promise<void>;
  close(): Promise<void>;
}

// While a log cannot be written, a line at most this often tries it again (a full disk gets space back).
const RETRY_MS = 1000;

/**
 * A sonic-boom destination, pino's own writer. Sync mode writes each line before returning (the dev log,
 * so that it is complete the moment a response is sent); async mode queues writes off the event loop and
 * `flush()` waits for them. A minLength of 1 keeps writes immediate while letting flush() wait for drain.
 *
 * A log that cannot be written (disk full, read-only var/) never takes the server down: the failure is said
 * once on stderr and lines are dropped, while a line every `retryMs` opens the log afresh and tries again;
 * once one gets through, stderr says so and writing goes on.
 */
export function openDestination(dest: string | 1 | 2, { sync, retryMs = RETRY_MS }: { sync: boolean; retryMs?: number }): LogDestination {
  const name = typeof dest === 'string' ? dest : `fd ${dest}`;
  let boom: ReturnType<typeof pino.destination> | undefined;
  // When the last failure was, while the log is down; and whether stderr has been told it is down.
  let failedAt: number | undefined;
  let down = false;
  const fail = (error: unknown): void => {
    failedAt = Date.now();
    // A writer that failed may still hold a retry of its own: it is dropped, the next attempt opens another.
    discard(boom);
    boom = undefined;
    if (down) return;
    down = true;
    say(`keel: cannot write the log ${name} (${error instanceof Error ? error.message : String(error)}); its lines are dropped until it can be written again`);
  };
  const recovered = (): void => {
    if (!down) return;
    down = false;
    say(`keel: the log ${name} is written again`);
  };
  const open = (): void => {
    try {
      // The file is opened here, not by sonic-boom: a sync sonic-boom whose open failed spins on every write.
      let fd = dest;
      if (typeof dest === 'string') {
        makeDirSync(dirname(dest));
        fd = openSync(dest, 'a+') as 1 | 2;
        // Lines dropped on a full disk may have left the last one cut: the next starts on a line of its own.
        if (down && endsMidLine(fd)) writeSync(fd, '\n');
      }
      const opened = pino.destination({ fd: fd as number, sync, minLength: sync ? 0 : 1 });
      opened.on('error', (error: unknown) => {
        if (opened === boom) fail(error);
      });
      boom = opened;
    } catch (error) {
      fail(error);
    }
  };
  open();
  const flush = (): Promise<void> =>
    new Promise((resolve) => {
      if (sync || boom === undefined) return resolve();
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
      if (closed) return;
      if (failedAt !== undefined) {
        if (Date.now() - failedAt < retryMs) return;
        failedAt = undefined;
        open();
      }
      const writer = boom;
      if (writer === undefined) return;
      try {
        writer.write(line);
      } catch (error) {
        fail(error);
        return;
      }
      // Still down, and this writer not failed meanwhile (sonic-boom may report the write's error before returning).
      if (!down || writer !== boom) return;
      // A sync write that returned has reached the file; an async one has once its writer has drained.
      if (sync) recovered();
      else writer.flush((error) => !error && writer === boom && recovered());
    },
    flush,
    async close() {
      await flush();
      closed = true;
      // Standard streams stay open: other code still writes to them.
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

function discard(boom: ReturnType<typeof pino.destination> | undefined): void {
  try {
    boom?.destroy();
  } catch {
    // already broken: nothing to release
  }
}

function endsMidLine(fd: number): boolean {
  const { size } = fstatSync(fd);
  if (size === 0) return false;
  const last = Buffer.alloc(1);
  readSync(fd, last, 0, 1, size - 1);
  return last[0] !== 0x0a;
}

function say(line: string): void {
  try {
    process.stderr.write(`${line}\n`);
  } catch {
    // stderr itself is gone: nothing more to say
  }
}

/** Adapts a caller's writer (a test's collector, a stream) to the destination interface. */
export function wrapWriter(writer: LineWriter): LogDestination {
  return { write: (line) => writer.write(line), flush: async () => {}, close: async () => {} };
}
