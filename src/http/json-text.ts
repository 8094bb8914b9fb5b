// An integer as JSON writes one (no leading zero): any other token is left for JSON.parse to refuse.
const JSON_INTEGER = /^-?(?:0|[1-9]\d*)$/;
// No integer of fewer digits is beyond Number.MAX_SAFE_INTEGER (16 digits).
const SAFE_DIGITS = 15;

/**
 * What JSON.parse needs to be told of a JSON text before it reads it, found in one pass outside strings:
 * - `depth`, how deep its brackets nest, which JSON.parse does not bound (json_decode stops at 512);
 * - `text`, the text with each integer that no JavaScript number holds exactly (beyond ±2^53 − 1) written as
 *   the string of its digits: JSON.parse rounded `{"id":12345678901234567891}` to 12345678901234567000
 *   without a word, where Symfony's toArray() decodes with JSON_BIGINT_AS_STRING and keeps the digits as a
 *   string (PHP's integers reach 2^63, JavaScript's exact ones 2^53). Floats are left as they are.
 * @example scanJson('{"id":12345678901234567891}') // { depth: 1, text: '{"id":"12345678901234567891"}' }
 */
export function scanJson(text: string): { depth: number; text: string } {
  let depth = 0;
  let deepest = 0;
  let inString = false;
  let quoted = '';
  let copied = 0;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (inString) {
      if (code === 0x5c) i++; // a backslash escapes the next character
      else if (code === 0x22) inString = false;
    } else if (code === 0x22) inString = true;
    else if (code === 0x5b || code === 0x7b) deepest = Math.max(deepest, ++depth);
    else if (code === 0x5d || code === 0x7d) depth--;
    else if (code === 0x2d || isDigit(code)) {
      // The whole number token, fraction and exponent included, so that only a bare integer is quoted.
      let end = i + 1;
      while (end < text.length && isNumberCharacter(text.charCodeAt(end))) end++;
      if (end - i > SAFE_DIGITS) {
        const token = text.slice(i, end);
        if (JSON_INTEGER.test(token) && !Number.isSafeInteger(Number(token))) {
          quoted += `${text.slice(copied, i)}"${token}"`;
          copied = end;
        }
      }
      i = end - 1;
    }
  }
  return { depth: deepest, text: copied === 0 ? text : quoted + text.slice(copied) };
}

function isDigit(code: number): boolean {
  return code >= 0x30 && code <= 0x39;
}

// Digits, `.`, `e`, `E`, `+` and `-`.
function isNumberCharacter(code: number): boolean {
  return isDigit(code) || code === 0x2e || code === 0x65 || code === 0x45 || code === 0x2b || code === 0x2d;
}
