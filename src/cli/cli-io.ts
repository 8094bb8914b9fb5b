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
  /** Resolves when the process is asked to stop (SIGINT, SIGTERM): what `keel serve` waits for. */
  waitForStop(): Promise<string>;
}

export function createProcessIo(): CliIo {
  return {
    stdout: process.stdout,
    stderr: process.stderr,
    env: process.env,
    cwd: process.cwd(),
    waitForStop: () =>
      new Promise((resolve) => {
        const stop = (signal: string): void => {
          process.off('SIGINT', stop);
          process.off('SIGTERM', stop);
          resolve(signal);
        };
        process.once('SIGINT', stop);
        process.once('SIGTERM', stop);
      }),
  };
}
