/**
 * One router in a fresh process (so that no other router's code shapes the JIT's view of this one):
 * builds it, checks every lookup finds the expected route, then measures lookups per second for each set
 * and prints them as one JSON line. Arguments: router name, table name, milliseconds per set, milliseconds of
 * warm-up per set.
 */
import { buildRouter, type RouterName } from '../routers/router-adapters.js';
import { lookupSet, routeTable, setsFor, type TableName } from './router-tables.js';

const [routerName, tableName, msArg, warmupArg] = process.argv.slice(2) as [RouterName, TableName, string, string | undefined];
const budgetMs = Number(msArg);
const warmupMs = Number(warmupArg ?? budgetMs / 5);
const ROUNDS = 5;

let lookup;
try {
  lookup = buildRouter(routerName, routeTable(tableName));
} catch (error) {
  process.stdout.write(`${JSON.stringify({ refused: (error as Error).message })}\n`);
  process.exit(0);
}

const result: Record<string, number> = {};
let sink = 0;
for (const setName of setsFor(tableName)) {
  const lookups = lookupSet(setName);
  for (const { method, path, expect } of lookups) {
    const found = lookup(method, path);
    if (found !== expect) throw new Error(`${routerName}: ${method} ${path} found ${found}, expected ${expect}`);
  }
  const methods = lookups.map((l) => l.method);
  const paths = lookups.map((l) => l.path);
  const pass = (): void => {
    for (let i = 0; i < paths.length; i++) if (lookup(methods[i] as string, paths[i] as string) !== undefined) sink++;
  };
  // Warm-up long enough for every router to reach its optimised code: find-my-way's lookups keep getting
  // faster for most of a second (measured after 60 ms of warm-up, it ran at half its speed).
  runFor(pass, warmupMs);
  const rates: number[] = [];
  for (let round = 0; round < ROUNDS; round++) {
    const { passes, seconds } = runFor(pass, budgetMs / ROUNDS);
    rates.push((passes * paths.length) / seconds);
  }
  // The best round: another process on the core can only slow a tight loop down, never speed it up.
  result[setName] = Math.max(...rates);
}
process.stdout.write(`${JSON.stringify({ rates: result, sink })}\n`);

function runFor(pass: () => void, ms: number): { passes: number; seconds: number } {
  const start = process.hrtime.bigint();
  const limit = BigInt(Math.round(ms * 1e6));
  let passes = 0;
  let elapsed = 0n;
  do {
    pass();
    passes++;
    elapsed = process.hrtime.bigint() - start;
  } while (elapsed < limit);
  return { passes, seconds: Number(elapsed) / 1e9 };
}
