// The control characters (C0, DEL, C1), the Unicode line and paragraph separators, and the bidi
// controls; of them, the line breaks, and the others but the tab.
const CONTROL = /[\p{Cc}\p{Zl}\p{Zp}\u202a-\u202e\u2066-\u2069]/u;
const LINE_BREAK = /\r\n|\r|\n/g;
const OTHER_CONTROL = /(?![\t\r\n])[\p{Cc}\p{Zl}\p{Zp}\u202a-\u202e\u2066-\u2069]/gu;
const ANY_CONTROL = new RegExp(CONTROL.source, 'gu');

/**
 * A message as one line of a log, on the console or in a file: line breaks become spaces (Monolog's
 * LineFormatter without inline line breaks), and the other control characters are written as `\u001b`,
 * as JSON writes them: a message quotes what clients sent (a panel name, a path), and an escape sequence
 * in it would otherwise act on the terminal that shows the log (`tail -f var/log/dev.log`, `npm start`).
 * U+2028 and U+2029 (a line to a viewer that splits on Unicode lines, and a forged record after it) and
 * the bidi controls (which reorder what a reader sees) are written so too.
 * @example oneLine('Panel "\u001b[31mred"') // 'Panel "\\u001b[31mred"'
 */
export function oneLine(message: string): string {
  if (!CONTROL.test(message)) return message;
  return message.replace(LINE_BREAK, ' ').replace(OTHER_CONTROL, escapeControl);
}

/**
 * A text with every control character oneLine() escapes written as `\\u001b`, line breaks and tabs
 * included: for a value quoted in a one-line message, where a space would hide what it really holds.
 * @example escapeControls('de\nbug') // 'de\\u000abug'
 */
export function escapeControls(text: string): string {
  return CONTROL.test(text) ? text.replace(ANY_CONTROL, escapeControl) : text;
}

/** A character as JSON's `\\u` escape writes it: `\\u001b`. */
export function escapeControl(char: string): string {
  return `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`;
}

// What JSON.stringify leaves as it is that a terminal or a log viewer acts on: DEL and the C1 controls
// (`\u009b` is a terminal's CSI), the Unicode line and paragraph separators, the bidi controls. Written
// escaped they stand for the same JSON string.
const RAW_IN_JSON = /[\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g;

/**
 * JSON text with the characters that oneLine escapes in a message, and that JSON.stringify leaves raw,
 * written as `\u` escapes: the same data, safe on a terminal (`tail -f`, `docker logs -f`).
 * @example escapeJsonControls('{"a":"\u009b31m"}') // '{"a":"\\u009b31m"}'
 */
export function escapeJsonControls(json: string): string {
  return json.replace(RAW_IN_JSON, escapeControl);
}
