/**
 * The reference compiles route regexes with PCRE in UTF mode, where PHP also turns on Unicode properties;
 * requirements are written for it. What JavaScript (with the `u` flag) reads otherwise is spelled out:
 * - `\d`, `\w` (and `\D`, `\W`) match any decimal digit (`١`), any letter or number or `_`, as PCRE's
 *   properties do, where JavaScript's stay ASCII;
 * - `\s`, `\S`, `\h`, `\v` are PCRE's lists of spaces (`\s` takes NEL, U+0085, and not the byte-order mark,
 *   U+FEFF, where JavaScript's does the opposite);
 * - `\pL`, `\x{e9}` are `\p{L}`, `\u{e9}`; a script (`\p{Cyrillic}`) is `\p{Script=Cyrillic}`;
 * - an escaped punctuation character JavaScript refuses to see escaped (`\-` outside a class, `\_`,
 *   `\#`, `\@`…) is that character.
 * Gaps: `\W` and `\S` inside a character class keep JavaScript's meaning, as a class cannot hold a
 * negated one (`\H` and `\V` there are refused); PCRE-only syntax (possessive `++`, atomic `(?>…)`, `\Q…\E`, POSIX `[[:alpha:]]`, inline
 * `(?i)`) stays refused, with the route, at start-up.
 * @example unicodeClasses('\\d+\\-[\\w.]+') // '\\p{Nd}+-[\\p{L}\\p{N}_.]+'
 */
export function unicodeClasses(source: string): string {
  if (!source.includes('\\')) return source;
  let out = '';
  let inClass = false;
  for (let i = 0; i < source.length; i++) {
    const ch = source[i]!;
    if (ch !== '\\') {
      if (ch === '[' && !inClass) inClass = true;
      else if (ch === ']' && inClass) inClass = false;
      out += ch;
      continue;
    }
    const next = source[i + 1] ?? '';
    i++;
    if (next === 'x' && source[i + 1] === '{') {
      const close = source.indexOf('}', i + 2);
      if (close !== -1) {
        out += `\\u{${source.slice(i + 2, close)}}`;
        i = close;
        continue;
      }
    }
    if ((next === 'p' || next === 'P') && source[i + 1] === '{') {
      const close = source.indexOf('}', i + 2);
      if (close !== -1) {
        out += unicodeProperty(next, source.slice(i + 2, close));
        i = close;
        continue;
      }
    }
    if ((next === 'p' || next === 'P') && /^[A-Za-z]$/.test(source[i + 1] ?? '')) {
      out += `\\${next}{${source[i + 1]!}}`;
      i++;
      continue;
    }
    out += translateEscape(next, inClass);
  }
  return out;
}

/**
 * `\p{…}` as PCRE reads it: `^` after the brace negates, `L&` is the cased letters (`LC`), and a name
 * that is no general category names a script (`\p{Cyrillic}`), which JavaScript writes `\p{Script=…}`.
 */
function unicodeProperty(letter: 'p' | 'P', body: string): string {
  let name = body;
  let negated = letter === 'P';
  if (name.startsWith('^')) {
    name = name.slice(1);
    negated = !negated;
  }
  if (name === 'L&') name = 'LC';
  else if (!isJavaScriptProperty(name) && isJavaScriptProperty(`Script=${name}`)) name = `Script=${name}`;
  return `\\${negated ? 'P' : 'p'}{${name}}`;
}

function isJavaScriptProperty(name: string): boolean {
  try {
    new RegExp(`\\p{${name}}`, 'u');
    return true;
  } catch {
    return false;
  }
}

function translateEscape(next: string, inClass: boolean): string {
  switch (next) {
    case 'd':
      return '\\p{Nd}';
    case 'D':
      return '\\P{Nd}';
    case 'w':
      return inClass ? WORD_CHARS : `[${WORD_CHARS}]`;
    case 'W':
      return inClass ? '\\W' : `[^${WORD_CHARS}]`;
    case 's':
      return inClass ? SPACE_CHARS : `[${SPACE_CHARS}]`;
    case 'S':
      return inClass ? '\\S' : `[^${SPACE_CHARS}]`;
    case 'h':
      return inClass ? HORIZONTAL_SPACE_CHARS : `[${HORIZONTAL_SPACE_CHARS}]`;
    case 'H':
      return inClass ? '\\H' : `[^${HORIZONTAL_SPACE_CHARS}]`;
    // JavaScript's \v is the vertical tab alone.
    case 'v':
      return inClass ? VERTICAL_SPACE_CHARS : `[${VERTICAL_SPACE_CHARS}]`;
    case 'V':
      return inClass ? '\\V' : `[^${VERTICAL_SPACE_CHARS}]`;
    // Word boundaries between PCRE's Unicode word characters (JavaScript's \b knows ASCII ones only); in a
    // class, \b is a backspace in both.
    case 'b':
      return inClass ? '\\b' : WORD_BOUNDARY;
    case 'B':
      return inClass ? '\\B' : NOT_WORD_BOUNDARY;
  }
  // Letters, digits and the characters JavaScript accepts escaped keep their backslash.
  if (/^[A-Za-z0-9]$/.test(next) || JS_ESCAPABLE.test(next) || (inClass && next === '-') || next === '') return `\\${next}`;
  return next;
}

// What JavaScript's `u` flag accepts after a backslash besides letters and digits: its syntax characters.
const JS_ESCAPABLE = /^[\^$\\.*+?()[\]{}|/]$/;
// PCRE's \h, its \v, and its \s: both.
const HORIZONTAL_SPACE_CHARS = '\\t \\u00a0\\u1680\\u180e\\u2000-\\u200a\\u202f\\u205f\\u3000';
const VERTICAL_SPACE_CHARS = '\\n\\v\\f\\r\\u0085\\u2028\\u2029';
const SPACE_CHARS = `${HORIZONTAL_SPACE_CHARS}${VERTICAL_SPACE_CHARS}`;
const WORD_CHARS = '\\p{L}\\p{N}_';
const WORD_BOUNDARY = `(?:(?<=[${WORD_CHARS}])(?![${WORD_CHARS}])|(?<![${WORD_CHARS}])(?=[${WORD_CHARS}]))`;
const NOT_WORD_BOUNDARY = `(?:(?<=[${WORD_CHARS}])(?=[${WORD_CHARS}])|(?<![${WORD_CHARS}])(?![${WORD_CHARS}]))`;
