import { CONTENDERS, HTTP_SCENARIOS } from '../scenarios/contenders.js';
import type { HttpRun } from '../scenarios/http.js';
import type { MemoryPoint } from '../scenarios/memory.js';
import type { ReferenceRun } from '../scenarios/reference.js';
import type { RouterRun } from '../scenarios/router.js';
import type { LookupSetName } from '../scenarios/router-tables.js';
import { median, pairedRatio, pairedRatios, relativeSpread } from '../lib/stats.js';

export interface HttpRow {
  contender: string;
  label: string;
  cpuMicrosPerRequest: number;
  /** Paired ratio of this contender's CPU per request to keel prod's. */
  cpuVsKeelProd: number;
  cpuSpread: number;
  requestsPerSecond: number;
  p50: number;
  p99: number;
}

export interface RouterRow {
  router: string;
  refused?: string;
  rates: Partial<Record<LookupSetName, number>>;
}

export interface Target {
  description: string;
  measured: string;
  met: boolean;
}

export interface Summary {
  http: Record<string, HttpRow[]>;
  router: RouterRow[];
  scale: { static200: Partial<Record<LookupSetName, number>>; static5000: Partial<Record<LookupSetName, number>> };
  memory: { points: MemoryPoint[]; maxRss: number; secondHalfGrowth: number; heapSecondHalfGrowth: number };
  targets: Target[];
  /** Steal time on the servers' CPU over the measured HTTP runs (shares, 0 to 1); undefined without HTTP runs. */
  steal: { median: number; max: number } | undefined;
}

/**
 * The reference (Symfony 5.4 on php-fpm, dev mode) serves the seed request at about this rate on the
 * machine its documentation was written on: the figure used when the run does not measure it (--reference).
 */
export const REFERENCE_REQUESTS_PER_SECOND = 30;
export const MEMORY_LIMIT = 250 * 1_048_576;
/** Memory counts as flat when RSS grows by less than this over the second half of the run. */
export const FLAT_TOLERANCE = 10 * 1_048_576;

const cpuOf = (runs: HttpRun[], scenario: string, contender: string): number[] =>
  runs
    .filter((run) => run.scenario === scenario && run.contender === contender)
    .sort((a, b) => a.repetition - b.repetition)
    .map((run) => run.cpuMicrosPerRequest);

export function summarize(httpRuns: HttpRun[], routerRuns: RouterRun[], memory: MemoryPoint[], reference?: ReferenceRun): Summary {
  const http: Record<string, HttpRow[]> = {};
  for (const scenario of HTTP_SCENARIOS) {
    const keel = cpuOf(httpRuns, scenario.id, 'keel-prod');
    http[scenario.id] = CONTENDERS.flatMap((contender) => {
      const runs = httpRuns.filter((run) => run.scenario === scenario.id && run.contender === contender.id);
      if (runs.length === 0) return [];
      const cpu = cpuOf(httpRuns, scenario.id, contender.id);
      return [
        {
          contender: contender.id,
          label: contender.label,
          cpuMicrosPerRequest: median(cpu),
          cpuVsKeelProd: pairedRatio(cpu, keel),
          cpuSpread: relativeSpread(cpu),
          requestsPerSecond: median(runs.map((run) => run.requestsPerSecond)),
          p50: median(runs.map((run) => run.p50)),
          p99: median(runs.map((run) => run.p99)),
        },
      ];
    });
  }
  const router = summarizeRouters(routerRuns.filter((run) => run.table === 'github'));
  const scale = {
    static200: summarizeRouters(routerRuns.filter((run) => run.table === 'static-200'))[0]?.rates ?? {},
    static5000: summarizeRouters(routerRuns.filter((run) => run.table === 'static-5000'))[0]?.rates ?? {},
  };
  const memorySummary = summarizeMemory(memory);
  const shares = httpRuns.map((run) => run.stealShare);
  const steal = shares.length === 0 ? undefined : { median: median(shares), max: Math.max(...shares) };
  return { http, router, scale, memory: memorySummary, targets: evaluateTargets(httpRuns, router, scale, memorySummary, reference), steal };
}

function summarizeRouters(runs: RouterRun[]): RouterRow[] {
  const names = [...new Set(runs.map((run) => run.router))];
  return names.map((name) => {
    const own = runs.filter((run) => run.router === name);
    const refused = own.find((run) => run.refused !== undefined)?.refused;
    if (refused !== undefined) return { router: name, refused, rates: {} };
    const rates: Partial<Record<LookupSetName, number>> = {};
    for (const set of ['static', 'param', 'miss', 'mixed'] as const) {
      const values = own.map((run) => run.rates?.[set]).filter((value): value is number => value !== undefined);
      if (values.length > 0) rates[set] = median(values);
    }
    return { router: name, rates };
  });
}

function summarizeMemory(points: MemoryPoint[]): Summary['memory'] {
  const last = points.at(-1);
  const middle = points[Math.floor((points.length - 1) / 2)];
  return {
    points,
    maxRss: Math.max(0, ...points.map((point) => point.rss)),
    secondHalfGrowth: last !== undefined && middle !== undefined ? last.rss - middle.rss : 0,
    heapSecondHalfGrowth: last !== undefined && middle !== undefined ? last.heapUsed - middle.heapUsed : 0,
  };
}

function evaluateTargets(runs: HttpRun[], router: RouterRow[], scale: Summary['scale'], memory: Summary['memory'], reference: ReferenceRun | undefined): Target[] {
  const targets: Target[] = [];
  const ratio = (scenario: string, a: string, b: string): number[] => pairedRatios(cpuOf(runs, scenario, a), cpuOf(runs, scenario, b));
  // The median decides; the range and the count of repetitions within the limit say whether the machine's
  // noise could have decided otherwise (a median just under the limit with half the repetitions over it).
  const ratioTarget = (description: string, ratios: number[], limit: number): void => {
    if (ratios.length === 0) return;
    const value = median(ratios);
    const within = ratios.filter((each) => each <= limit).length;
    const range = ratios.length > 1 ? `${Math.min(...ratios).toFixed(2)}–${Math.max(...ratios).toFixed(2)}; ` : '';
    targets.push({ description, measured: `${value.toFixed(2)}× (${range}met in ${within} of ${ratios.length} repetitions)`, met: value <= limit });
  };
  if (runs.length > 0) {
    ratioTarget('prod, seed 404: keel CPU/request ≤ Fastify’s (ratio ≤ 1.00)', ratio('seed-404', 'keel-prod', 'fastify'), 1);
    ratioTarget('prod, seed 404: keel CPU/request ≤ 1.25× raw node:http', ratio('seed-404', 'keel-prod', 'node-http'), 1.25);
    ratioTarget('prod, JSON route: keel CPU/request ≤ Fastify’s (ratio ≤ 1.00)', ratio('json', 'keel-prod', 'fastify'), 1);
    ratioTarget('prod, JSON route: keel CPU/request ≤ 1.25× raw node:http', ratio('json', 'keel-prod', 'node-http'), 1.25);
    ratioTarget('dev (everything on), seed 404: keel CPU/request ≤ 2.5× Fastify’s 404', ratio('seed-404', 'keel-dev', 'fastify'), 2.5);
    const devRate = median(runs.filter((run) => run.scenario === 'seed-404' && run.contender === 'keel-dev').map((run) => run.requestsPerSecond));
    if (!Number.isNaN(devRate)) {
      const referenceRate = reference?.requestsPerSecond ?? REFERENCE_REQUESTS_PER_SECOND;
      const times = devRate / referenceRate;
      const source = reference === undefined ? `~${REFERENCE_REQUESTS_PER_SECOND} req/s per its documentation, not run here` : `${referenceRate.toFixed(1)} req/s measured in this run`;
      targets.push({
        description: `dev, seed 404: ≥ 100× the reference on php-fpm (${source})`,
        measured: `${Math.round(devRate)} req/s = ${Math.round(times)}×`,
        met: times >= 100,
      });
    }
  }
  const keel = router.find((row) => row.router === 'keel')?.rates.mixed;
  const fmw = router.find((row) => row.router === 'find-my-way')?.rates.mixed;
  if (keel !== undefined && fmw !== undefined) {
    targets.push({ description: 'router, mixed lookups on GitHub’s table: keel ≥ find-my-way', measured: `${(keel / fmw).toFixed(2)}× find-my-way`, met: keel >= fmw });
  }
  const small = scale.static200.static;
  const large = scale.static5000.static;
  if (small !== undefined && large !== undefined) {
    // "Flat": a static lookup in the 5 000-route table costs at most 20 % more than in the 200-route one.
    const cost = small / large;
    targets.push({ description: 'router: static lookup cost flat from 200 to 5 000 routes (≤ 1.2×)', measured: `${cost.toFixed(2)}× the cost at 200`, met: cost <= 1.2 });
  }
  if (memory.points.length > 1) {
    const requests = memory.points.at(-1)?.requests ?? 0;
    const mb = (bytes: number): string => (bytes / 1_048_576).toFixed(0);
    targets.push({
      description: `memory: RSS under 250 MB and flat over ${requests.toLocaleString('en')} dev requests`,
      measured: `max ${mb(memory.maxRss)} MB, ${memory.secondHalfGrowth < 0 ? '−' : '+'}${mb(Math.abs(memory.secondHalfGrowth))} MB over the second half`,
      met: memory.maxRss < MEMORY_LIMIT && memory.secondHalfGrowth < FLAT_TOLERANCE,
    });
  }
  return targets;
}
