import stringWidth from 'string-width';
import type { Style } from './style.js';

/**
 * A plain text table: a header row, a rule, then one line per row, columns padded to the widest cell.
 * Widths are the columns a terminal gives the text (a CJK character takes two, a combining accent none),
 * as Symfony's Table measures them. Cells hold plain text only, so colour goes on the header alone.
 * @example renderTable(['Name', 'Path'], [['home', '/']], style)
 * // 'Name  Path\n----  ----\nhome  /\n'
 */
export function renderTable(headers: readonly string[], rows: readonly (readonly string[])[], style: Style): string {
  const widths = headers.map((header, column) => Math.max(stringWidth(header), ...rows.map((row) => stringWidth(row[column] ?? ''))));
  const line = (cells: readonly string[], paint: (text: string) => string = (text) => text): string =>
    cells
      .map((cell, column) => (column === cells.length - 1 ? paint(cell) : paint(padEnd(cell, widths[column] ?? 0))))
      .join('  ')
      .trimEnd() + '\n';
  return line(headers, style.bold) + line(widths.map((width) => '-'.repeat(width))) + rows.map((row) => line(row)).join('');
}

/** Two columns, label and value, for one record (a route, a profile). */
export function renderDefinitionList(entries: readonly (readonly [string, string])[], style: Style): string {
  const width = Math.max(0, ...entries.map(([label]) => stringWidth(label)));
  return entries
    .map(([label, value]) => {
      const [first = '', ...rest] = value.split('\n');
      const continuation = rest.map((part) => `\n${' '.repeat(width + 2)}${part}`).join('');
      return `${style.bold(padEnd(label, width))}  ${first}`.trimEnd() + `${continuation}\n`;
    })
    .join('');
}

function padEnd(text: string, width: number): string {
  return text + ' '.repeat(Math.max(0, width - stringWidth(text)));
}
