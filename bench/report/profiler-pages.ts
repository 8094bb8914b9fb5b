/** The pages bench/profiler-pages.ts opens, and its table. */

export interface ProfilerPage {
  name: string;
  path: (token: string) => string;
}

/**
 * The seed request's record as a developer reads it: the page X-Debug-Token-Link opens (the exception
 * panel, the record having one), the panels the reference also has, the toolbar fragment and the search.
 * Same URLs on both sides: keel's profiler keeps the reference's routes and panel names.
 */
export const PROFILER_PAGES: readonly ProfilerPage[] = [
  { name: 'record (exception panel)', path: (token) => `/_profiler/${token}` },
  ...['request', 'logger', 'router', 'time', 'events', 'config'].map((panel) => ({ name: `panel ${panel}`, path: (token: string) => `/_profiler/${token}?panel=${panel}` })),
  { name: 'toolbar (/_wdt)', path: (token) => `/_wdt/${token}` },
  { name: 'search results', path: () => '/_profiler/empty/search/results?limit=10' },
];

export interface PageTiming {
  page: string;
  /** Time to the last byte, ms. */
  p50: number;
  p90: number;
  /** The page's size in bytes, as sent. */
  bytes: number;
  /** Server CPU per read, µs; undefined where it cannot be measured (the reference's nginx and workers). */
  cpuMicros: number | undefined;
}

/** A Markdown table: keel's figures and, when measured, the reference's and how many times faster keel was. */
export function pageTable(keel: readonly PageTiming[], reference?: readonly PageTiming[]): string {
  const head = ['page', 'keel p50 ms', 'keel p90 ms', 'keel CPU µs', 'keel kB'];
  if (reference !== undefined) head.push('reference p50 ms', 'reference p90 ms', 'reference kB', 'keel faster (p50)');
  const rows = keel.map((timing, i) => {
    const row = [timing.page, timing.p50.toFixed(2), timing.p90.toFixed(2), timing.cpuMicros === undefined ? 'n/a' : timing.cpuMicros.toFixed(0), (timing.bytes / 1024).toFixed(1)];
    const other = reference?.[i];
    if (other !== undefined) row.push(other.p50.toFixed(2), other.p90.toFixed(2), (other.bytes / 1024).toFixed(1), `${(other.p50 / timing.p50).toFixed(1)}×`);
    return row;
  });
  return [head, head.map(() => '---'), ...rows].map((cells) => `| ${cells.join(' | ')} |`).join('\n');
}
