import { readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { ConfigError } from './config-error.js';
import { parseDotenv } from './parse-dotenv.js';

/**
 * The variables of the .env cascade, the application defaults and the real environment, merged as
 * Symfony's Dotenv::loadEnv() does: `.env` (or `.env.dist` when there is no `.env`), `.env.local` (not in
 * the test environment, so that test runs are reproducible), then `.env.<APP_ENV>` and
 * `.env.<APP_ENV>.local`, unless APP_ENV is `local`. Each file overrides what earlier files set, and a
 * `$NAME` in a file sees them; the real environment overrides every file, except for the names its
 * SYMFONY_DOTENV_VARS lists, which an earlier Dotenv load set and later files may change. APP_ENV names
 * the files in lower case (`APP_ENV=PROD` reads `.env.prod`), as the configuration reads it. A missing
 * `.env` is no error. The environment given is never modified.
 * @example resolveEnvVars('/app', process.env).PORT
 */
export function resolveEnvVars(
  projectDir: string,
  env: Record<string, string | undefined>,
  defaults: Record<string, string> = {},
): Record<string, string | undefined> {
  return runCascade(projectDir, env, defaults).variables();
}

/** The merged variables, and those of them whose value a `.env` file gave (see resolveEnvironment). */
export interface ResolvedEnvironment {
  variables: Record<string, string | undefined>;
  /**
   * The variables the files set and the real environment left to them, by name, with their values:
   * Symfony's SYMFONY_DOTENV_VARS, which its profiler lists as "Defined in .env".
   */
  fromFiles: Record<string, string>;
}

/** resolveEnvVars, also telling which variables the files gave: one read of the cascade for both. */
export function resolveEnvironment(projectDir: string, env: Record<string, string | undefined>, defaults: Record<string, string> = {}): ResolvedEnvironment {
  const cascade = runCascade(projectDir, env, defaults);
  return { variables: cascade.variables(), fromFiles: cascade.fromFiles() };
}

/**
 * The names the `.env` files read for this environment define, sorted (Symfony's debug:dotenv lists these):
 * neither the real environment's nor the default APP_ENV that stands in for a file when none sets it.
 * @example declaredDotenvNames('/app', { APP_ENV: 'prod' }) // ['DATABASE_URL', 'TRUSTED_PROXIES']
 */
export function declaredDotenvNames(projectDir: string, env: Record<string, string | undefined>): string[] {
  return [...runCascade(projectDir, env, {}).fileNames].sort();
}

function runCascade(projectDir: string, env: Record<string, string | undefined>, defaults: Record<string, string>): DotenvCascade {
  const cascade = new DotenvCascade(env, defaults);
  const dotenv = join(projectDir, '.env');
  cascade.load(isFile(dotenv) || !isFile(`${dotenv}.dist`) ? dotenv : `${dotenv}.dist`);
  // Symfony sets the default environment as if a file had: .env.local may still choose another.
  if (cascade.get('APP_ENV') === undefined) cascade.populate({ APP_ENV: 'dev' });
  if (cascade.appEnv() !== 'test') loadIfFile(cascade, join(projectDir, '.env.local'));
  const appEnv = cascade.appEnv();
  // `local` is the environment .env.local describes: there is no .env.local.local to read.
  if (appEnv !== 'local') {
    loadIfFile(cascade, join(projectDir, `.env.${appEnv}`));
    loadIfFile(cascade, join(projectDir, `.env.${appEnv}.local`));
  }
  return cascade;
}

// Symfony reads the files after .env only when is_file() holds: a directory (or a FIFO, which would block
// the read) that happens to bear the name is passed over, as a missing file is.
function loadIfFile(cascade: DotenvCascade, path: string): void {
  if (isFile(path)) cascade.load(path);
}

/** The environment as the cascade builds it, standing in for PHP's $_SERVER, which Symfony writes to. */
class DotenvCascade {
  readonly #vars: Record<string, string | undefined> = Object.create(null) as Record<string, string | undefined>;
  // Names that a Dotenv load set rather than the real environment: later files may override them.
  readonly #loaded = new Set<string>();
  /** Every name a file defined, whether or not the real environment kept its own value. */
  readonly fileNames = new Set<string>();

  constructor(env: Record<string, string | undefined>, defaults: Record<string, string>) {
    // The application's defaults sit below every file, as if an earlier load had set them.
    for (const [name, value] of Object.entries(defaults)) {
      this.#vars[name] = value;
      this.#loaded.add(name);
    }
    for (const [name, value] of Object.entries(env)) {
      if (value === undefined) continue;
      this.#vars[name] = value;
      this.#loaded.delete(name);
    }
    for (const name of (env['SYMFONY_DOTENV_VARS'] ?? '').split(',')) if (name !== '') this.#loaded.add(name);
  }

  get(name: string): string | undefined {
    return this.#vars[name];
  }

  // As loadConfig reads it (trimmed, blank for unset): `APP_ENV=prod ` (a Windows `set … &&` leaves the
  // space) must load .env.prod, and an empty one .env.dev, not `.env.`.
  appEnv(): string {
    const value = (this.#vars['APP_ENV'] ?? '').trim().toLowerCase();
    return value === '' ? 'dev' : value;
  }

  load(path: string): void {
    const text = readEnvFile(path);
    if (text === undefined) return;
    const values = parseDotenv(text, path, { env: this.#vars, loaded: this.#loaded });
    for (const name of Object.keys(values)) this.fileNames.add(name);
    this.populate(values);
  }

  /** Symfony's populate(): a variable of the real environment keeps its value. */
  populate(values: Record<string, string>): void {
    for (const [name, value] of Object.entries(values)) {
      if (this.#vars[name] !== undefined && !this.#loaded.has(name)) continue;
      this.#vars[name] = value;
      this.#loaded.add(name);
    }
  }

  variables(): Record<string, string | undefined> {
    return { ...this.#vars };
  }

  /** Names a file defined whose value is still a load's, not the real environment's. */
  fromFiles(): Record<string, string> {
    const values: Record<string, string> = Object.create(null) as Record<string, string>;
    for (const name of this.fileNames) {
      const value = this.#vars[name];
      if (this.#loaded.has(name) && value !== undefined) values[name] = value;
    }
    return values;
  }
}

function isFile(path: string): boolean {
  return statSync(path, { throwIfNoEntry: false })?.isFile() ?? false;
}

/**
 * The file's text; undefined when there is no such file. Bytes that are no UTF-8 (a file saved as Latin-1)
 * are refused, naming the line: read as UTF-8 they would become U+FFFD, and a password holding `ä` would
 * silently be another one. (Symfony keeps the bytes, which PHP strings are.)
 */
function readEnvFile(path: string): string | undefined {
  let bytes: Buffer;
  try {
    bytes = readFileSync(path);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') return undefined;
    throw new ConfigError({ file: path, reason: `Unable to read the environment file (${code ?? 'unknown error'})` });
  }
  try {
    return UTF8.decode(bytes);
  } catch {
    const text = bytes.toString('utf8');
    const line = text.slice(0, text.indexOf('\ufffd')).split('\n').length;
    throw new ConfigError({ file: path, line, reason: 'The environment file is not UTF-8 (save it as UTF-8)' });
  }
}

// Fatal: a byte sequence that is no UTF-8 throws instead of becoming U+FFFD. No BOM stripping: a BOM is
// refused by the parser, as Symfony's Dotenv 6 does.
const UTF8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });
