import type { Style } from './style.js';

/**
 * A plain text table: a header row, a rule, then one line per row, columns padded to the widest cell.
 * Cells hold plain text only (widths are counted in characters), so colour goes on the header alone.
 * @example renderTable(['Name', 'Path'], [['home', '/']], style)
 * // 'Name  Path\n----  ----\nhome  /\n'
 */
export function renderTable(headers: readonly string[], rows: readonly (readonly string[])[], style: Style): string {
  const widths = headers.map((header, column) => Math.max(header.length, ...rows.map((row) => (row[column] ?? '').length)));
  const line = (cells: readonly string[], paint: (text: string) => string = (text) => text): string =>
    cells
      .map((cell, column) => (column === cells.length - 1 ? paint(cell) : paint(cell.padEnd(widths[column] ?? 0))))
      .join('  ')
      .trimEnd() + '\n';
  return line(headers, style.bold) + line(widths.map((width) => '-'.repeat(width))) + rows.map((row) => line(row)).join('');
}

/** Two columns, label and value, for one record (a route, a profile). */
export function renderDefinitionList(entries: readonly (readonly [string, string])[], style: Style): string {
  const width = Math.max(0, ...entries.map(([label]) => label.length));
  return entries
    .map(([label, value]) => {
      const [first = '', ...rest] = value.split('\n');
      const continuation = rest.map((part) => `\n${' '.repeat(width + 2)}${part}`).join('');
      return `${style.bold(label.padEnd(width))}  ${first}`.trimEnd() + `${continuation}\n`;
    })
    .join('');
}
