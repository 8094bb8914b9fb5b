/**
 * Requirements are written for PCRE, the reference's engine. What JavaScript's regular expressions lack
 * fails to compile with the engine's terse message (`Invalid group`, `Nothing to repeat`), which does not
 * say that the requirement is valid PCRE nor what to write instead: this names the construct.
 */
export interface PcreOnlySyntax {
  /** What the construct is, with the text that starts it: "inline flags (`(?i)`)". */
  what: string;
  /** What to write instead. */
  fix: string;
}

// Group openings JavaScript lacks, each with its name and fix (inline flags are found apart).
const GROUPS: readonly [opening: string, what: string, fix: string][] = [
  ['(?>', 'an atomic group', 'write `(?:…)`'],
  ['(?P<', 'a Python-style named group', 'write `(?<name>…)`'],
  ['(?P=', 'a Python-style back-reference', 'repeat the pattern instead'],
  ['(?P>', 'a Python-style subroutine call', 'repeat the pattern instead'],
  ['(?#', 'a comment', 'remove it'],
  ['(*', 'a PCRE verb', 'remove it'],
];
// `(?i)`, `(?i:`, `(?-i)`, `(?im-sx:`…
const INLINE_FLAGS = /^\(\?\^?[a-zA-Z]*(?:-[a-zA-Z]*)?[):]/;

/**
 * The first construct of `requirement` that PCRE reads and JavaScript does not, outside escapes and
 * (but for POSIX classes) character classes; undefined when there is none.
 * @example pcreOnlySyntax('\\d++')?.what // 'a possessive quantifier (`++`)'
 */
export function pcreOnlySyntax(requirement: string): PcreOnlySyntax | undefined {
  let inClass = false;
  // The previous character was a quantifier (not an escaped one): a `+` after it makes it possessive.
  let afterQuantifier = false;
  for (let i = 0; i < requirement.length; i++) {
    const ch = requirement[i]!;
    const rest = requirement.slice(i);
    if (ch === '\\') {
      if (requirement[i + 1] === 'Q') return { what: 'quoting (`\\Q…\\E`)', fix: `escape each special character (\`${quoted(rest)}\`)` };
      i++;
      afterQuantifier = false;
      continue;
    }
    if (inClass) {
      const posix = /^\[:\^?[a-z]+:\]/.exec(rest);
      if (posix !== null) return { what: `a POSIX class (\`${posix[0]}\`)`, fix: 'write a property or a range (`\\p{L}`, `[a-z]`, `\\d`)' };
      if (ch === ']') inClass = false;
      continue;
    }
    if (ch === '+' && afterQuantifier) {
      const quantifier = requirement[i - 1]!;
      return { what: `a possessive quantifier (\`${quantifier}+\`)`, fix: `drop its last \`+\` (\`${requirement.slice(0, i)}\`)` };
    }
    if (ch === '(') {
      const group = GROUPS.find(([opening]) => rest.startsWith(opening));
      if (group !== undefined) return { what: `${group[1]} (\`${group[0]}\`)`, fix: group[2] };
      const flags = INLINE_FLAGS.exec(rest);
      if (flags !== null && flags[0] !== '(?:') {
        return { what: `inline flags (\`${flags[0]}\`)`, fix: 'spell the cases in a character class (`[Aa]`) or list the variants (`abc|ABC`)' };
      }
    }
    if (ch === '[') inClass = true;
    // `}` ends a `{n,m}` quantifier; `+?` and `*?` (lazy) are followed by no `+` in valid JavaScript.
    afterQuantifier = ch === '+' || ch === '*' || ch === '?' || ch === '}';
  }
  return undefined;
}

// `\Qa.b\E…` written with escapes: `a\.b`, the rest left as it is.
function quoted(text: string): string {
  const end = text.indexOf('\\E');
  const literal = end === -1 ? text.slice(2) : text.slice(2, end);
  return literal.replace(/[\\^$.*+?()[\]{}|/]/g, '\\$&') + (end === -1 ? '' : text.slice(end + 2));
}
