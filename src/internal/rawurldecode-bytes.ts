const ESCAPE = /%([0-9A-Fa-f]{2})/g;

/**
 * PHP's rawurldecode(), to one character per byte, as node hands header and target bytes over: each `%XX`
 * is that byte, anything else (`+`, a lone `%`) stays as it is. headerText() then reads the bytes as text.
 * @example rawurldecodeBytes('caf%C3%A9+%zz') // 'cafÃ©+%zz'
 */
export function rawurldecodeBytes(text: string): string {
  return text.replace(ESCAPE, (_, hex: string) => String.fromCharCode(Number.parseInt(hex, 16)));
}
