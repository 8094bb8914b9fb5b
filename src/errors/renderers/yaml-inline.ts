/**
 * A value in YAML's inline flow style, as Symfony's `Yaml::dump($value, 0)` writes it (its YamlEncoder's
 * default, hence the reference's `.yaml` error previews): `{ key: value, list: [a, b] }`, an empty array as
 * `{  }`, strings plain when YAML would read them back as the same string, else quoted the way Symfony's
 * Inline and Escaper choose. Checked against PHP on generated strings.
 * @example dumpYamlInline({ title: 'An error occurred', status: 404 }) // "{ title: 'An error occurred', status: 404 }"
 */
export function dumpYamlInline(value: unknown): string {
  if (value === null || value === undefined) return 'null';
  if (typeof value === 'boolean') return value ? 'true' : 'false';
  if (typeof value === 'number') return String(value);
  if (typeof value === 'string') return dumpString(value);
  if (Array.isArray(value)) return value.length === 0 ? '{  }' : `[${value.map(dumpYamlInline).join(', ')}]`;
  if (typeof value === 'object') return `{ ${Object.entries(value).map(([key, item]) => `${dumpString(key)}: ${dumpYamlInline(item)}`).join(', ')} }`;
  return 'null';
}

// PHP's is_numeric(): optional surrounding whitespace, a sign, digits with a point, an exponent.
const PHP_NUMERIC = /^[ \t\n\r\v\f]*[+-]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?[ \t\n\r\v\f]*$/;
const CONTROL_WHITESPACE = /[\f\n\r\t\v]/;
// Characters Symfony's Inline::isBinaryString() refuses in a text string: C0 controls but \0, \a–\r and ESC.
const isBinary = (code: number): boolean => (code >= 0x01 && code <= 0x06) || (code >= 0x0e && code <= 0x1f && code !== 0x1b);
// Escaper::REGEX_CHARACTER_TO_ESCAPE.
const needsDoubleQuotes = (code: number): boolean => code <= 0x1f || code === 0x7f || code === 0x85 || code === 0xa0 || code === 0x2028 || code === 0x2029;
const RESERVED_WORDS = new Set(['null', '~', 'true', 'false', 'y', 'n', 'yes', 'no', 'on', 'off']);
// Escaper::requiresSingleQuoting(): PCRE's \s in UTF mode is \t–\r and the Unicode spaces.
const SINGLE_QUOTED = /[\t\n\v\f\r\p{Zs}'":{}[\],&*#?]|^[-?|<>=!%@`\p{Zs}]/u;
// A digit, then digits and underscores: `[0-9]+[_0-9]*` would try every split of a long run of digits.
const DIGITS = /^[0-9][_0-9]*$/;
const HEX = /^0x[0-9a-f_]+$/i;
const TIMESTAMP = /^[0-9]{4}-[0-9][0-9]?-[0-9][0-9]?(?:(?:[Tt]|[ \t]+)[0-9][0-9]?:[0-9]{2}:[0-9]{2}(?:\.[0-9]*)?(?:[ \t]*(?:Z|[-+][0-9][0-9]?(?::[0-9]{2})?))?)?$/;

const NAMED_CONTROLS: Record<number, string> = { 0: '\\0', 7: '\\a', 8: '\\b', 9: '\\t', 10: '\\n', 11: '\\v', 12: '\\f', 13: '\\r', 27: '\\e' };
// A lone surrogate: text PHP would hold as invalid UTF-8, which it dumps as binary.
const LONE_SURROGATE = /[\uD800-\uDFFF]/u;

// Symfony's Escaper replaces these pairs in this order, each over the result of the previous (str_replace).
const ESCAPES: [string, string][] = [
  ['\\', '\\\\'],
  ['\\\\', '\\"'],
  ['\\"', '\\\\'],
  ['"', '\\"'],
  ...[...Array(32).keys()].map((code): [string, string] => [String.fromCharCode(code), NAMED_CONTROLS[code] ?? `\\x${code.toString(16).padStart(2, '0')}`]),
  ['\x7f', '\\x7f'],
  ['\u0085', '\\N'],
  ['\u00a0', '\\_'],
  ['\u2028', '\\L'],
  ['\u2029', '\\P'],
];

function dumpString(text: string): string {
  if (PHP_NUMERIC.test(text) && !CONTROL_WHITESPACE.test(text)) return `'${text}'`;
  if (text === '') return "''";
  if (some(text, isBinary) || LONE_SURROGATE.test(text)) return `!!binary ${Buffer.from(text).toString('base64')}`;
  if (some(text, needsDoubleQuotes)) return `"${ESCAPES.reduce((escaped, [from, to]) => escaped.split(from).join(to), text)}"`;
  if (RESERVED_WORDS.has(asciiLower(text)) || SINGLE_QUOTED.test(text) || DIGITS.test(text) || HEX.test(text) || TIMESTAMP.test(text)) {
    return `'${text.replaceAll("'", "''")}'`;
  }
  return text;
}

// PHP's strtolower(): ASCII letters only.
function asciiLower(text: string): string {
  return text.replace(/[A-Z]+/g, (letters) => letters.toLowerCase());
}

function some(text: string, test: (code: number) => boolean): boolean {
  for (let i = 0; i < text.length; i++) if (test(text.charCodeAt(i))) return true;
  return false;
}
