import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { ROUTER_NAMES } from '../routers/router-adapters.js';
import type { LookupSetName, TableName } from './router-tables.js';

const CHILD = fileURLToPath(new URL('./router-child.ts', import.meta.url));

export interface RouterOptions {
  repetitions: number;
  /** Measuring time per lookup set, in ms. */
  msPerSet: number;
  /** Warm-up per lookup set, in ms, before the measured rounds. */
  warmupMs: number;
  serverPrefix: string[];
  log: (line: string) => void;
}

/** One child's measurement: lookups per second for each set, or why the router refused the table. */
export interface RouterRun {
  router: string;
  table: TableName;
  repetition: number;
  rates?: Partial<Record<LookupSetName, number>>;
  refused?: string;
}

/** The routers on GitHub's table, then keel alone on the 200- and 5 000-static-route tables, interleaved. */
export async function runRouterBench({ repetitions, msPerSet, warmupMs, serverPrefix, log }: RouterOptions): Promise<RouterRun[]> {
  const cases: { router: string; table: TableName }[] = [
    ...ROUTER_NAMES.map((router) => ({ router, table: 'github' as const })),
    { router: 'keel', table: 'static-200' },
    { router: 'keel', table: 'static-5000' },
  ];
  const runs: RouterRun[] = [];
  const refused = new Set<string>();
  for (let repetition = 0; repetition < repetitions; repetition++) {
    for (const { router, table } of cases) {
      if (refused.has(`${router}/${table}`)) continue;
      const output = await runChild([...serverPrefix, process.execPath, '--import', 'tsx', CHILD, router, table, String(msPerSet), String(warmupMs)]);
      const parsed = JSON.parse(output) as { rates?: RouterRun['rates']; refused?: string };
      runs.push({ router, table, repetition, ...(parsed.refused !== undefined ? { refused: parsed.refused } : { rates: parsed.rates }) });
      if (parsed.refused !== undefined) refused.add(`${router}/${table}`);
      log(`  router #${repetition + 1} ${router} on ${table}: ${parsed.refused !== undefined ? `refused (${parsed.refused})` : formatRates(parsed.rates ?? {})}`);
    }
  }
  return runs;
}

function runChild(command: string[]): Promise<string> {
  return new Promise((resolve, reject) => {
    execFile(command[0] as string, command.slice(1), { maxBuffer: 1 << 20 }, (error, stdout, stderr) => {
      if (error !== null) reject(new Error(`${command.slice(-3).join(' ')}: ${error.message}\n${stderr}`));
      else resolve(stdout.trim().split('\n').at(-1) ?? '');
    });
  });
}

function formatRates(rates: Record<string, number>): string {
  return Object.entries(rates)
    .map(([set, rate]) => `${set} ${(rate / 1e6).toFixed(2)} M/s`)
    .join(', ');
}
