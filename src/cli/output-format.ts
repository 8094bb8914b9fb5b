import { Option } from 'commander';

export type OutputFormat = 'txt' | 'json';

/** `--format=txt|json`, the same on every command that has output a script would read. */
export function formatOption(): Option {
  return new Option('--format <format>', 'output format').choices(['txt', 'json']).default('txt');
}

/** JSON for scripts: two-space indented, one trailing newline. */
export function toJson(value: unknown): string {
  return `${JSON.stringify(value, null, 2)}\n`;
}
