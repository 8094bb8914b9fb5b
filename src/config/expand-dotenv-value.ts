/**
 * The second half of reading a .env value, once the lexer has cut it out of the file: command
 * substitution (refused), `$VAR` expansion and backslash unescaping, each in the order Symfony's Dotenv
 * applies them, as observed against Symfony 5.4. Only double-quoted and unquoted values come here: a
 * single-quoted value is taken as written.
 */

/** Where `$NAME` is looked up, and where `${NAME:=default}` writes. */
export interface ExpansionScope {
  lookup(name: string): string;
  assign(name: string, value: string): void;
}

/** Throws the file's syntax error, worded as Symfony's FormatException; the lexer adds the file and line. */
export type FailFn = (reason: string) => never;

const NAME = /_?[A-Za-z][A-Za-z0-9_]*/y;
// `:-default` or `:=default`, running to the next `}` (or the end of the value, without braces).
const DEFAULT = /:[-=][^}]*/y;
// A default value is taken literally, so Symfony refuses what would look like quoting or nesting.
const UNSUPPORTED_IN_DEFAULT = /['"{$]/;

/**
 * A double-quoted value: `\"`, `\r` and `\n` become their characters first (one replacement after the
 * other, so `\\n` ends as a backslash and a newline, as in Symfony), then commands and variables, then
 * `\\` becomes `\` — in the expanded text too.
 * @example expandDoubleQuoted('a\\n$HOME', scope, fail) // 'a\n/home/ada'
 */
export function expandDoubleQuoted(raw: string, scope: ExpansionScope, fail: FailFn): string {
  const unescaped = raw.replaceAll('\\"', '"').replaceAll('\\r', '\r').replaceAll('\\n', '\n');
  return expandUnquoted(unescaped, scope, fail);
}

/** An unquoted value (already trimmed): commands, then variables, then `\\` → `\`. */
export function expandUnquoted(raw: string, scope: ExpansionScope, fail: FailFn): string {
  return expandVariables(refuseCommands(raw, fail), scope, fail).replaceAll('\\\\', '\\');
}

/**
 * Symfony runs `$(command)` through a shell; keel never runs anything, so one is a syntax error rather than
 * a value silently different from the reference's. `\$(…)` stays as the literal text `$(…)`. Only the
 * file's own text is searched: a variable whose value holds `$(` is never a command (Symfony resolves
 * commands before variables too).
 */
function refuseCommands(text: string, fail: FailFn): string {
  let out = '';
  let from = 0;
  for (let at = text.indexOf('$(', from); at !== -1; at = text.indexOf('$(', at + 1)) {
    const end = matchParentheses(text, at + 1);
    if (end === -1) continue;
    if (text[at - 1] !== '\\') fail('Command substitution is not supported: keel never runs commands (write \\$( to keep "$(" as text)');
    out += text.slice(from, at - 1) + text.slice(at, end);
    from = end;
    at = end - 1;
  }
  return out + text.slice(from);
}

/**
 * The end (exclusive) of the balanced `(…)` group opening at `open`, or -1. Each group must hold something:
 * `$()` and `$(())` are text, not commands. A loop rather than recursion, so that deep nesting cannot
 * overflow the stack.
 */
function matchParentheses(text: string, open: number): number {
  const filled: boolean[] = [];
  for (let at = open; at < text.length; at += 1) {
    const char = text[at];
    if (char === '(') {
      if (filled.length > 0) filled[filled.length - 1] = true;
      filled.push(false);
    } else if (char === ')') {
      if (filled.pop() !== true) return -1;
      if (filled.length === 0) return at + 1;
    } else {
      filled[filled.length - 1] = true;
    }
  }
  return -1;
}

/**
 * `$NAME`, `${NAME}`, `${NAME:-default}` (the default when the value is empty) and `${NAME:=default}`
 * (which also defines NAME for the lines below). An odd run of backslashes before `$` escapes it (one
 * backslash is dropped, the rest of the reference kept as written); an even run stays in front of the
 * value. A `$` followed by nothing a reference can hold (`$`, `$1`, `${`) is kept literally.
 * @example expandVariables('${PORT:-8080}', scope, fail) // '8080' when PORT is empty or undefined
 */
function expandVariables(text: string, scope: ExpansionScope, fail: FailFn): string {
  let out = '';
  let from = 0;
  for (let dollar = text.indexOf('$'); dollar !== -1; dollar = text.indexOf('$', from)) {
    if (text[dollar + 1] === '(') {
      out += text.slice(from, dollar + 1);
      from = dollar + 1;
      continue;
    }
    let start = dollar;
    while (start > from && text[start - 1] === '\\') start -= 1;
    const reference = readReference(text, dollar + 1);
    const written = text.slice(start, reference.end);
    out += text.slice(from, start);
    from = reference.end;
    if ((dollar - start) % 2 === 1) {
      out += written.slice(1);
      continue;
    }
    if (reference.name === undefined && reference.fallback === undefined && !reference.closingBrace) {
      out += written;
      continue;
    }
    if (reference.openingBrace && !reference.closingBrace) fail('Unclosed braces on variable expansion');
    out += text.slice(start, dollar) + resolveReference(reference, scope, fail);
  }
  return out + text.slice(from);
}

interface Reference {
  openingBrace: boolean;
  name: string | undefined;
  /** `:-text` or `:=text`, as written. */
  fallback: string | undefined;
  closingBrace: boolean;
  end: number;
}

function readReference(text: string, at: number): Reference {
  const openingBrace = text[at] === '{';
  let end = openingBrace ? at + 1 : at;
  const name = matchAt(NAME, text, end);
  end += name?.length ?? 0;
  const fallback = matchAt(DEFAULT, text, end);
  end += fallback?.length ?? 0;
  const closingBrace = text[end] === '}';
  return { openingBrace, name, fallback, closingBrace, end: closingBrace ? end + 1 : end };
}

function resolveReference({ openingBrace, name = '', fallback, closingBrace }: Reference, scope: ExpansionScope, fail: FailFn): string {
  let value = scope.lookup(name);
  if (value === '' && fallback !== undefined) {
    const unsupported = UNSUPPORTED_IN_DEFAULT.exec(fallback);
    if (unsupported !== null) fail(`Unsupported character "${unsupported[0]}" found in the default value of variable "$${name}".`);
    value = fallback.slice(2);
    if (fallback[1] === '=') scope.assign(name, value);
  }
  // `$NAME}`: the brace is text that follows the reference.
  return !openingBrace && closingBrace ? `${value}}` : value;
}

function matchAt(pattern: RegExp, text: string, at: number): string | undefined {
  pattern.lastIndex = at;
  return pattern.exec(text)?.[0];
}
