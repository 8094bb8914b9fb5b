/**
 * A command failed for a reason the user can act on: printed as one line on stderr, never as a stack
 * trace. Exit code 1 for a failure, 2 for a wrong invocation (the code commander uses for usage errors).
 */
export class CliError extends Error {
  readonly exitCode: 1 | 2;

  constructor(message: string, { exitCode = 1 }: { exitCode?: 1 | 2 } = {}) {
    super(message);
    this.name = 'CliError';
    this.exitCode = exitCode;
  }
}

/** The invocation itself is wrong (an argument commander cannot check on its own): exit code 2. */
export class UsageError extends CliError {
  constructor(message: string) {
    super(message, { exitCode: 2 });
    this.name = 'UsageError';
  }
}

/** The command has already printed its outcome (router:match on a 404); only the exit code 1 is left. */
export class ReportedError extends CliError {
  constructor() {
    super('');
    this.name = 'ReportedError';
  }
}
