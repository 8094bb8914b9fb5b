/**
 * The reference compiles route regexes in PCRE's UTF mode, where PHP also turns on Unicode properties:
 * `\d` matches any decimal digit (`١`, `٣`), `\w` any letter or number or `_`. JavaScript's `u` flag keeps
 * them ASCII, so they are spelled out as the properties PCRE uses. `\s` already covers Unicode spaces in
 * JavaScript. One gap remains: `\W` inside a character class (`[^\W]`) stays ASCII, as a JavaScript class
 * cannot hold a negated class.
 * @example unicodeClasses('\\d+-[\\w.]+') // '\\p{Nd}+-[\\p{L}\\p{N}_.]+'
 */
export function unicodeClasses(source: string): string {
  if (!source.includes('\\')) return source;
  let out = '';
  let inClass = false;
  for (let i = 0; i < source.length; i++) {
    const ch = source[i]!;
    if (ch === '\\') {
      const next = source[i + 1] ?? '';
      i++;
      out += next === 'd' ? '\\p{Nd}' : next === 'D' ? '\\P{Nd}' : next === 'w' ? (inClass ? WORD_CHARS : `[${WORD_CHARS}]`) : next === 'W' && !inClass ? `[^${WORD_CHARS}]` : `\\${next}`;
      continue;
    }
    if (ch === '[' && !inClass) inClass = true;
    else if (ch === ']' && inClass) inClass = false;
    out += ch;
  }
  return out;
}

const WORD_CHARS = '\\p{L}\\p{N}_';
