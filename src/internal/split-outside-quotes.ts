/**
 * The parts of a header value between `separator`s that stand outside double quotes (a quoted string may
 * hold the separator, and a backslash in it escapes the next character), trimmed, empty ones left out:
 * RFC 9110's lists (§5.6.1) and parameters (§5.6.6), as Symfony's HeaderUtils::split() reads them.
 * @example splitOutsideQuotes('text/html;title="a, b", application/json', ',') // ['text/html;title="a, b"', 'application/json']
 */
export function splitOutsideQuotes(value: string, separator: string): string[] {
  const parts: string[] = [];
  let current = '';
  let quoted = false;
  for (let i = 0; i < value.length; i++) {
    const char = value[i]!;
    if (quoted && char === '\\' && i + 1 < value.length) {
      current += char + value[++i];
      continue;
    }
    if (char === '"') quoted = !quoted;
    if (char === separator && !quoted) {
      parts.push(current);
      current = '';
    } else {
      current += char;
    }
  }
  parts.push(current);
  return parts.map((part) => part.trim()).filter((part) => part !== '');
}

const QUOTED_PAIR_OR_QUOTE = /\\(.)|"/g;

/**
 * A part of such a value without its quotes, as Symfony's HeaderUtils::unquote() reads it: every unescaped
 * quote goes, wherever it is (a value whose quote is never closed, `for="1.2.3.4`, reads as what it quotes),
 * and a backslash keeps the character after it.
 * @example unquote('"Set-Cookie, X-\\"A"') // 'Set-Cookie, X-"A'
 */
export function unquote(text: string): string {
  return text.includes('"') || text.includes('\\') ? text.replace(QUOTED_PAIR_OR_QUOTE, '$1') : text;
}
