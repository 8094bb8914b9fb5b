import { escapeControls } from '../logging/one-line.js';
import { isSecretName, MASK, maskSettingSecrets } from './mask-secrets.js';

/** A .env file keel cannot read: where, and why (worded as Symfony's FormatException). */
export interface DotenvProblem {
  file: string;
  /** The line where the faulty declaration starts; absent when the file itself cannot be read. */
  line?: number;
  reason: string;
}

/**
 * A configuration value that cannot be used, or a .env file that cannot be read; `code` is
 * `KEEL_ERR_CONFIG_INVALID` either way.
 */
export class ConfigError extends Error {
  readonly code = 'KEEL_ERR_CONFIG_INVALID';
  /** The .env file at fault, for a file that cannot be read. */
  readonly file?: string;
  readonly line?: number;

  constructor(variable: string, value: string, expected: string);
  constructor(problem: DotenvProblem);
  constructor(...args: [variable: string, value: string, expected: string] | [problem: DotenvProblem]) {
    super(args.length === 1 ? describeProblem(args[0]) : describeValue(...args));
    this.name = 'ConfigError';
    if (args.length === 1) {
      this.file = args[0].file;
      this.line = args[0].line;
    }
  }
}

// The message lands in terminals and CI logs: a secret setting's value, or a URL's password, is masked,
// and its control characters escaped: a line break cut the message (`keel` prints its first line) before
// it said what was expected, and an escape sequence acted on the terminal.
function describeValue(variable: string, value: string, expected: string): string {
  return `${variable}="${isSecretName(variable) ? MASK : escapeControls(maskSettingSecrets(value, { refused: true }))}" is invalid: expected ${expected}.`;
}

// Symfony's format, `<reason> in "<file>" at line <n>.`, without the excerpt of the file it adds below:
// the line may hold a secret, and the message stays on one line.
function describeProblem({ file, line, reason }: DotenvProblem): string {
  return line === undefined ? `${reason}: "${file}".` : `${reason} in "${file}" at line ${line}.`;
}
