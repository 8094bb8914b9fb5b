/** A stream the CLI writes to: process.stdout and process.stderr, or a buffer in tests. */
export interface OutputStream {
  write(chunk: string): unknown;
  isTTY?: boolean;
}

/** Everything a command touches outside itself, so that it can run in-process in a test. */
export interface CliIo {
  stdout: OutputStream;
  stderr: OutputStream;
  env: Record<string, string | undefined>;
  /** The project directory: `.env` files, `package.json` and `var/` are looked up here. */
  cwd: string;
  /**
   * Resolves when the process is asked to stop (SIGINT, SIGTERM): what `keel serve` waits for. Further
   * signals are ignored: the stop under way finishes.
   */
  waitForStop(): Promise<string>;
  /** Ends the process at once (a stop that hangs). */
  exit(code: number): never;
}

export function createProcessIo(): CliIo {
  // A reader that goes away (`keel debug:router | head`) is no error of the command: it stops quietly.
  for (const stream of [process.stdout, process.stderr]) {
    stream.on('error', (error: NodeJS.ErrnoException) => {
      if (error.code === 'EPIPE') process.exit(0);
      throw error;
    });
  }
  return {
    stdout: process.stdout,
    stderr: process.stderr,
    env: process.env,
    cwd: process.cwd(),
    waitForStop: () =>
      new Promise((resolve) => {
        let stopping = false;
        const stop = (signal: string): void => {
          if (stopping) return;
          stopping = true;
          resolve(signal);
        };
        // Left installed: a second signal would otherwise kill the process mid-stop.
        process.on('SIGINT', stop);
        process.on('SIGTERM', stop);
      }),
    exit: (code) => process.exit(code),
  };
}
