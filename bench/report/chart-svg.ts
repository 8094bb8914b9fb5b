import type { HttpRow } from './summary.js';

const WIDTH = 760;
const LABEL_WIDTH = 150;
const BAR_HEIGHT = 18;
const GAP = 6;
const PANEL_GAP = 34;
const KEEL = '#d9480f';
const PEER = '#868e96';

/**
 * Horizontal bar chart of server CPU time per request, one panel per scenario, keel's bars in colour.
 * Bars within a panel share one scale; each bar carries its value and its ratio to keel prod.
 */
export function renderCpuChart(panels: { title: string; rows: HttpRow[] }[]): string {
  const parts: string[] = [];
  let y = 28;
  parts.push(text(10, 18, 'Server CPU time per request (µs, median; lower is better)', 'bold'));
  for (const { title, rows } of panels) {
    y += 8;
    parts.push(text(10, y + 12, title, 'bold'));
    y += 20;
    const max = Math.max(...rows.map((row) => row.cpuMicrosPerRequest), 1);
    const scale = (WIDTH - LABEL_WIDTH - 150) / max;
    for (const row of rows) {
      const width = Math.max(1, row.cpuMicrosPerRequest * scale);
      const colour = row.contender.startsWith('keel') ? KEEL : PEER;
      parts.push(text(LABEL_WIDTH - 8, y + 13, row.contender, 'normal', 'end'));
      parts.push(`<rect x="${LABEL_WIDTH}" y="${y}" width="${width.toFixed(1)}" height="${BAR_HEIGHT}" fill="${colour}"/>`);
      const ratio = Number.isNaN(row.cpuVsKeelProd) ? '' : ` (${row.cpuVsKeelProd.toFixed(2)}× keel prod)`;
      parts.push(text(LABEL_WIDTH + width + 6, y + 13, `${row.cpuMicrosPerRequest.toFixed(1)}${ratio}`));
      y += BAR_HEIGHT + GAP;
    }
    y += PANEL_GAP - GAP;
  }
  const height = y;
  return [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${WIDTH}" height="${height}" viewBox="0 0 ${WIDTH} ${height}" font-family="Helvetica, Arial, sans-serif" font-size="12">`,
    `<rect width="${WIDTH}" height="${height}" fill="#fff"/>`,
    ...parts,
    '</svg>',
    '',
  ].join('\n');
}

function text(x: number, y: number, content: string, weight: 'normal' | 'bold' = 'normal', anchor: 'start' | 'end' = 'start'): string {
  const escaped = content.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
  return `<text x="${x}" y="${y}" font-weight="${weight}" text-anchor="${anchor}" fill="#222">${escaped}</text>`;
}
