import { ConfigError } from './config-error.js';

// A comma that no `}` follows before a `{` does: not inside a `{m,n}` quantifier.
const PATTERN_SEPARATOR = /,(?![^{]*\})/;

/** Reads typed values out of a flat string map, throwing a ConfigError that names the variable. */
export class EnvValues {
  readonly #vars: Record<string, string | undefined>;

  constructor(vars: Record<string, string | undefined>) {
    this.#vars = vars;
  }

  /** The names set to something (see raw()). */
  names(): string[] {
    return Object.keys(this.#vars).filter((name) => this.raw(name) !== undefined);
  }

  raw(name: string): string | undefined {
    const value = this.#vars[name];
    return value === undefined || value.trim() === '' ? undefined : value.trim();
  }

  /** Set, but to nothing or whitespace, which raw() and the readers below take for unset. */
  isBlank(name: string): boolean {
    const value = this.#vars[name];
    return value !== undefined && value.trim() === '';
  }

  string(name: string, fallback: string): string {
    return this.raw(name) ?? fallback;
  }

  /** PHP's FILTER_VALIDATE_BOOLEAN vocabulary, which Symfony applies to APP_DEBUG. */
  boolean(name: string, fallback: boolean): boolean {
    const value = this.raw(name);
    if (value === undefined) return fallback;
    const lower = value.toLowerCase();
    if (['1', 'true', 'on', 'yes'].includes(lower)) return true;
    if (['0', 'false', 'off', 'no'].includes(lower)) return false;
    throw new ConfigError(name, value, 'one of 1, 0, true, false, on, off, yes, no');
  }

  integer(name: string, fallback: number, min: number, max = Number.MAX_SAFE_INTEGER): number {
    const value = this.raw(name);
    if (value === undefined) return fallback;
    if (!/^\d+$/.test(value) || Number(value) < min || Number(value) > max) {
      throw new ConfigError(name, value, `an integer from ${min} to ${max}`);
    }
    return Number(value);
  }

  oneOf<T extends string>(name: string, allowed: readonly T[], fallback: T): T {
    const value = this.raw(name);
    if (value === undefined) return fallback;
    const lower = value.toLowerCase() as T;
    if (!allowed.includes(lower)) throw new ConfigError(name, value, `one of ${allowed.join(', ')}`);
    return lower;
  }

  /** A comma-separated list, entries trimmed, empty entries dropped. */
  list(name: string, fallback: string[], separator: string | RegExp = ','): string[] {
    const value = this.raw(name);
    if (value === undefined) return fallback;
    return value.split(separator).map((entry) => entry.trim()).filter((entry) => entry !== '');
  }

  /**
   * A comma-separated list of regular expressions: a comma inside braces belongs to a quantifier
   * (`[a-z]{1,3}`), as Symfony splits SYMFONY_TRUSTED_HOSTS.
   */
  patternList(name: string): string[] {
    return this.list(name, [], PATTERN_SEPARATOR);
  }

  /**
   * Seconds, given as a bare number or as Symfony's interval strings, at most `max`: a longer one (four
   * hundred digits are Infinity) went on to fail later, without the variable's name.
   * @example "30" → 30, "1 minute" → 60, "2 hours" → 7200
   */
  duration(name: string, fallback: number, max = Number.MAX_SAFE_INTEGER): number {
    const value = this.raw(name);
    if (value === undefined) return fallback;
    const match = /^(\d+)\s*(s|sec|secs|seconds?|m|min|mins|minutes?|h|hours?|d|days?)?$/i.exec(value);
    const unit = (match?.[2] ?? 's').toLowerCase()[0];
    const seconds = Number(match?.[1]) * (unit === 'd' ? 86_400 : unit === 'h' ? 3_600 : unit === 'm' ? 60 : 1);
    if (match === null || seconds === 0 || !(seconds <= max)) {
      throw new ConfigError(name, value, `a positive number of seconds, or "<n> seconds|minutes|hours|days", up to ${max} seconds`);
    }
    return seconds;
  }

  /** Bytes, as a bare number or with a k/m suffix (binary multiples). @example "1m" → 1048576 */
  bytes(name: string, fallback: number): number {
    const value = this.raw(name);
    if (value === undefined) return fallback;
    const match = /^(\d+)\s*(b|k|kb|m|mb)?$/i.exec(value);
    if (match === null || Number(match[1]) === 0) throw new ConfigError(name, value, 'a positive number of bytes, optionally with a k or m suffix');
    const unit = (match[2] ?? 'b').toLowerCase()[0];
    return Number(match[1]) * (unit === 'm' ? 1_048_576 : unit === 'k' ? 1_024 : 1);
  }
}
