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
  /**
   * Calls `listener` with each exception or promise rejection the application leaves uncaught outside any
   * request (`uncaughtException`, `unhandledRejection`): what `keel serve` logs and stops on.
   */
  onStrayFailure(listener: (error: unknown, kind: 'uncaughtException' | 'unhandledRejection') => void): void;
  /** Ends the process at once (a stop that hangs). */
  exit(code: number): never;
}

export function createProcessIo(): CliIo {
  const closed = new Set<NodeJS.WriteStream>();
  for (const stream of [process.stdout, process.stderr]) {
    stream.on('error', (error: NodeJS.ErrnoException) => {
      // A reader that goes away (`keel router:match /x | head -1`) is no error of the command: its output
      // stops, and the command ends with its own exit code (a 404 stays 1 for `set -o pipefail`).
      if (error.code === 'EPIPE') {
        closed.add(stream);
        return;
      }
      // A full disk, a closed descriptor: one line, not a stack trace.
      if (stream !== process.stderr && !closed.has(process.stderr)) process.stderr.write(`error: cannot write the output: ${error.message}\n`);
      process.exit(1);
    });
  }
  const output = (stream: NodeJS.WriteStream): OutputStream => ({
    write: (chunk) => closed.has(stream) || stream.write(chunk),
    isTTY: stream.isTTY,
  });
  return {
    stdout: output(process.stdout),
    stderr: output(process.stderr),
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
    onStrayFailure: (listener) => {
      for (const kind of ['uncaughtException', 'unhandledRejection'] as const) process.on(kind, (error: unknown) => listener(error, kind));
    },
    exit: (code) => process.exit(code),
  };
}
