// PHP 8's numeric strings: optional whitespace around an integer or a decimal with an optional exponent.
const NUMERIC = /^[ \t\n\r\v\f]*[+-]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?[ \t\n\r\v\f]*$/;

/** Whether PHP 8 reads the string as a number (`' 1'`, `'1.0'`, `'1e3'`, not `'1a'`). */
export function isNumericString(text: string): boolean {
  return NUMERIC.test(text);
}

/**
 * PHP 8's `==` between two strings: as numbers when both are numeric strings, else byte for byte.
 * @example looseEquals('01', '1') // true
 */
export function looseEquals(a: string, b: string): boolean {
  if (a === b) return true;
  return isNumericString(a) && isNumericString(b) && Number(a) === Number(b);
}
