import { ConfigError } from './config-error.js';
import { expandDoubleQuoted, expandUnquoted, type ExpansionScope } from './expand-dotenv-value.js';

/** What a file's `$NAME` references see beside the file's own earlier lines. */
export interface DotenvScope {
  /** The environment as it stands: the real variables, and those that earlier files of the cascade set. */
  readonly env: Readonly<Record<string, string | undefined>>;
  /** The names of env that earlier files set (Symfony's SYMFONY_DOTENV_VARS), which this file may redefine. */
  readonly loaded: ReadonlySet<string>;
}

const NO_SCOPE: DotenvScope = { env: {}, loaded: new Set() };

// Blank lines and comments between declarations; `\s` as PCRE reads it, ASCII only.
const BLANK = /(?:[ \t\n\v\f\r]*(?:#[^\n]*)?)*/y;
const DECLARATION = /(export[ \t]+)?(_?[A-Za-z][A-Za-z0-9_]*)/y;
// `A=`, `A=   `, `A= # comment`: an empty value.
const EMPTY_VALUE = /[ \t]*(?:#[^\n]*)?(?=\n|$)/y;
// What PHP's rtrim() removes after an unquoted value (not \f, which then counts as a space inside it).
const TRAILING_SPACE = /[ \t\n\r\0\v]+$/;
const SPACE = /[ \t\n\v\f\r]/;

/**
 * Reads a .env file by the rules of Symfony's Dotenv (5.4), which differ from npm dotenv's: `$NAME`,
 * `${NAME}`, `${NAME:-default}` and `${NAME:=default}` are expanded, `#` starts a comment only at the
 * start of a value or after a space, quoted parts join (`A="a"b'c'` is `abc`), and anything Symfony
 * refuses throws a ConfigError naming the file and line, worded as Symfony's FormatException so that
 * the reference's documentation answers it. A `$(command)` is refused too: keel never runs commands.
 * A reference sees the real environment first, except for names that earlier files of the cascade set
 * (`scope.loaded`), where a line above in this file wins.
 * @example parseDotenv('HOST=db\nURL="redis://${HOST}:6379" # cache\n', '/app/.env')
 * // { HOST: 'db', URL: 'redis://db:6379' }
 */
export function parseDotenv(text: string, path: string, scope: DotenvScope = NO_SCOPE): Record<string, string> {
  return new DotenvLexer(text, path, scope).parse();
}

class DotenvLexer {
  readonly #text: string;
  readonly #path: string;
  readonly #scope: DotenvScope;
  readonly #values = new Map<string, string>();
  #cursor = 0;
  // Where the declaration being read starts: every error is reported at its line.
  #declaration = 0;

  constructor(text: string, path: string, scope: DotenvScope) {
    this.#text = text.replace(/\r\n?/g, '\n');
    this.#path = path;
    this.#scope = scope;
  }

  parse(): Record<string, string> {
    // Symfony refuses the BOM when it loads a file, rather than reading it as part of the first name.
    if (this.#text.startsWith('\uFEFF')) this.#fail('Loading files starting with a byte-order-mark (BOM) is not supported.');
    for (this.#skipBlank(); this.#cursor < this.#text.length; this.#skipBlank()) {
      this.#declaration = this.#cursor;
      const name = this.#readName();
      const value = this.#readValue();
      this.#values.set(name, value);
    }
    return Object.fromEntries(this.#values);
  }

  #skipBlank(): void {
    BLANK.lastIndex = this.#cursor;
    BLANK.exec(this.#text);
    this.#cursor = BLANK.lastIndex;
  }

  /** `NAME=` or `export NAME=`, leaving the cursor on the value. */
  #readName(): string {
    DECLARATION.lastIndex = this.#cursor;
    const match = DECLARATION.exec(this.#text);
    if (match === null) this.#fail('Invalid character in variable name');
    const [declared, exported, name = ''] = match;
    this.#cursor += declared.length;
    const next = this.#text[this.#cursor];
    if (next === undefined || next === '\n' || next === '#') {
      // `export NAME` alone would unset NAME in a shell, which a .env file cannot do.
      this.#fail(exported === undefined ? 'Missing = in the environment variable declaration' : 'Unable to unset an environment variable');
    }
    if (next === ' ' || next === '\t') this.#fail('Whitespace characters are not supported after the variable name');
    if (next !== '=') this.#fail('Missing = in the environment variable declaration');
    this.#cursor += 1;
    return name;
  }

  /** The value to the end of the line, or of its last quote: quoted and unquoted parts, joined. */
  #readValue(): string {
    EMPTY_VALUE.lastIndex = this.#cursor;
    if (EMPTY_VALUE.test(this.#text)) {
      this.#cursor = EMPTY_VALUE.lastIndex;
      return '';
    }
    const first = this.#text[this.#cursor];
    if (first === ' ' || first === '\t') this.#fail('Whitespace are not supported before the value');
    let value = '';
    do {
      const char = this.#text[this.#cursor];
      if (char === "'") value += this.#readSingleQuoted();
      else if (char === '"') value += expandDoubleQuoted(this.#readDoubleQuoted(), this.#expansionScope(), this.#failFn);
      else {
        value += this.#readUnquoted();
        if (this.#text[this.#cursor] === '#') break;
      }
    } while (this.#cursor < this.#text.length && this.#text[this.#cursor] !== '\n');
    return value;
  }

  /** `'…'`: every character as written, backslashes and dollars included. */
  #readSingleQuoted(): string {
    const close = this.#text.indexOf("'", this.#cursor + 1);
    if (close === -1) this.#fail('Missing quote to end the value');
    const raw = this.#text.slice(this.#cursor + 1, close);
    this.#cursor = close + 1;
    return raw;
  }

  /**
   * `"…"`, before unescaping. A `"` closes the value unless a backslash precedes it that is not itself
   * preceded by one: `"a\"b"` is one value, while `"a\\"` ends after the two backslashes (Symfony's rule).
   */
  #readDoubleQuoted(): string {
    const text = this.#text;
    let at = this.#cursor + 1;
    for (; at < text.length; at += 1) {
      if (text[at] === '"' && !(text[at - 1] === '\\' && text[at - 2] !== '\\')) break;
    }
    if (at >= text.length) this.#fail('Missing quote to end the value');
    const raw = text.slice(this.#cursor + 1, at);
    this.#cursor = at + 1;
    return raw;
  }

  /**
   * Up to a quote, the end of the line, or a `#` after a space or tab. `\"` and `\'` are quote characters
   * that open nothing; `$(…)` is read whole, spaces, quotes and `#` included, as a command.
   */
  #readUnquoted(): string {
    const text = this.#text;
    let raw = '';
    while (this.#cursor < text.length) {
      const char = text[this.#cursor];
      const next = text[this.#cursor + 1];
      if (char === '\n' || char === '"' || char === "'") break;
      if (char === '#' && (text[this.#cursor - 1] === ' ' || text[this.#cursor - 1] === '\t')) break;
      if (char === '$' && next === '(') {
        raw += this.#readCommand();
        continue;
      }
      if (char === '\\' && (next === '"' || next === "'")) this.#cursor += 1;
      raw += text[this.#cursor];
      this.#cursor += 1;
    }
    const trimmed = raw.replace(TRAILING_SPACE, '');
    const expanded = expandUnquoted(trimmed, this.#expansionScope(), this.#failFn);
    // A space that expansion or unescaping did not account for would be cut by a shell: Symfony asks for quotes.
    if (expanded === trimmed && SPACE.test(trimmed)) this.#fail('A value containing spaces must be surrounded by quotes');
    return expanded;
  }

  /** `$(…)` with balanced parentheses, on one line. */
  #readCommand(): string {
    const text = this.#text;
    const start = this.#cursor;
    this.#cursor += 1;
    let depth = 0;
    do {
      const char = text[this.#cursor];
      if (char === undefined || char === '\n') this.#fail('Missing closing parenthesis.');
      if (char === '(') depth += 1;
      else if (char === ')') depth -= 1;
      this.#cursor += 1;
    } while (depth > 0);
    return text.slice(start, this.#cursor);
  }

  /**
   * Symfony's lookup order: a name an earlier file set and this file has redefined above → this file;
   * else the environment (real variables win over the file); else a line above; else empty.
   */
  #expansionScope(): ExpansionScope {
    const { env, loaded } = this.#scope;
    const values = this.#values;
    return {
      lookup(name) {
        const own = values.get(name);
        if (own !== undefined && loaded.has(name)) return own;
        const outer = Object.hasOwn(env, name) ? env[name] : undefined;
        return outer ?? own ?? '';
      },
      assign(name, value) {
        values.set(name, value);
      },
    };
  }

  readonly #failFn = (reason: string): never => this.#fail(reason);

  #fail(reason: string): never {
    const line = this.#text.slice(0, this.#declaration).split('\n').length;
    throw new ConfigError({ file: this.#path, line, reason });
  }
}
