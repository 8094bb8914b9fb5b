import type { OutputStream } from './cli-io.js';

export interface Style {
  readonly enabled: boolean;
  bold(text: string): string;
  dim(text: string): string;
  red(text: string): string;
  green(text: string): string;
  yellow(text: string): string;
  cyan(text: string): string;
}

/**
 * ANSI styling for one output stream: on only when the stream is a terminal and NO_COLOR is absent or
 * empty (no-color.org), so that piped output and logs never carry escape codes.
 * @example createStyle(process.stdout, process.env).green('OK')
 */
export function createStyle(stream: Pick<OutputStream, 'isTTY'>, env: Record<string, string | undefined>): Style {
  const enabled = stream.isTTY === true && (env.NO_COLOR === undefined || env.NO_COLOR === '');
  const sgr = (open: number, close: number) => (text: string) => (enabled ? `\u001b[${open}m${text}\u001b[${close}m` : text);
  return { enabled, bold: sgr(1, 22), dim: sgr(2, 22), red: sgr(31, 39), green: sgr(32, 39), yellow: sgr(33, 39), cyan: sgr(36, 39) };
}
