import { HTTP_SCENARIOS } from '../scenarios/contenders.js';
import type { MachineInfo } from './machine.js';
import type { Summary } from './summary.js';
import { warmupRequests, type HotFunction } from '../scenarios/cpu-profile.js';

export interface RunInfo {
  date: string;
  mode: 'full' | 'quick';
  pinning: string;
  clockTicks: number;
  settings: string;
  durationSeconds: number;
}

/** The generated results section of docs/benchmarks.md. */
export function renderResults(summary: Summary, machine: MachineInfo, run: RunInfo): string {
  const lines: string[] = [];
  const push = (...more: string[]): void => {
    lines.push(...more);
  };
  push(
    `Run of ${run.date} (${run.mode} mode, ${Math.round(run.durationSeconds)} s): ${run.settings}.`,
    '',
    `Machine: ${machine.cpuModel}, ${machine.cores} cores, Linux ${machine.kernel}, Node ${machine.node}; ${run.pinning}; CLK_TCK ${run.clockTicks}.`,
    '',
    ...(summary.steal === undefined ? [] : [stealSentence(summary.steal), '']),
    `Versions: ${Object.entries(machine.versions)
      .map(([name, version]) => `${name} ${version}`)
      .join(', ')}.`,
    '',
    '### Targets',
    '',
    '| target | measured | met |',
    '| --- | --- | --- |',
    ...summary.targets.map((target) => `| ${target.description} | ${target.measured} | ${target.met ? 'yes' : '**no**'} |`),
    '',
  );
  for (const scenario of HTTP_SCENARIOS) {
    const rows = summary.http[scenario.id] ?? [];
    if (rows.length === 0) continue;
    push(
      `### ${scenario.label}`,
      '',
      '| server | CPU µs/request | × keel prod | spread | req/s | p50 ms | p99 ms |',
      '| --- | ---: | ---: | ---: | ---: | ---: | ---: |',
      ...rows.map(
        (row) =>
          `| ${row.label} | ${row.cpuMicrosPerRequest.toFixed(1)} | ${row.cpuVsKeelProd.toFixed(2)} | ${(row.cpuSpread * 100).toFixed(0)} % | ${Math.round(row.requestsPerSecond)} | ${row.p50} | ${row.p99} |`,
      ),
      '',
    );
  }
  if (summary.http['seed-404'] !== undefined) push('![Server CPU time per request](benchmarks.svg)', '');
  if (summary.router.length > 0) {
    const keel = summary.router.find((row) => row.router === 'keel');
    push(
      '### Router: lookups per second on GitHub’s API table',
      '',
      '| router | static hits | parameter hits | misses | mixed | keel ÷ this (mixed) |',
      '| --- | ---: | ---: | ---: | ---: | ---: |',
      ...summary.router.map((row) =>
        row.refused !== undefined
          ? `| ${row.router} | refuses the table: \`UnsupportedPathError: ${row.refused}\` | | | | |`
          : `| ${row.router} | ${rate(row.rates.static)} | ${rate(row.rates.param)} | ${rate(row.rates.miss)} | ${rate(row.rates.mixed)} | ${ratio(keel?.rates.mixed, row.rates.mixed)} |`,
      ),
      '',
      '### keel’s matcher: 200 vs 5 000 static routes',
      '',
      '| table | static hits | misses |',
      '| --- | ---: | ---: |',
      `| 200 static routes | ${rate(summary.scale.static200.static)} | ${rate(summary.scale.static200.miss)} |`,
      `| 5 000 static routes | ${rate(summary.scale.static5000.static)} | ${rate(summary.scale.static5000.miss)} |`,
      '',
    );
  }
  if (summary.memory.points.length > 0) {
    push(
      '### Memory of keel in dev mode under the seed request',
      '',
      '| requests | RSS MB | heap used MB |',
      '| ---: | ---: | ---: |',
      ...summary.memory.points.map((point) => `| ${point.requests.toLocaleString('en')} | ${mb(point.rss)} | ${mb(point.heapUsed)} |`),
      '',
    );
  }
  return lines.join('\n');
}

const rate = (value: number | undefined): string => (value === undefined ? '–' : value >= 1e6 ? `${(value / 1e6).toFixed(2)} M` : `${(value / 1e3).toFixed(0)} k`);
const ratio = (a: number | undefined, b: number | undefined): string => (a === undefined || b === undefined ? '–' : `${(a / b).toFixed(2)}`);
const mb = (bytes: number): string => (bytes / 1_048_576).toFixed(1);

/** The profile section: for each mode, the functions where keel's server spends its own time. */
export function renderProfiles(profiles: { title: string; requests: number; functions: HotFunction[] }[], top: number): string {
  const lines: string[] = [];
  for (const { title, requests, functions } of profiles) {
    lines.push(
      `#### ${title} (${requests.toLocaleString('en')} seed requests after ${warmupRequests(requests).toLocaleString('en')} of warm-up)`,
      '',
      '| # | function | location | self ms | share of busy time |',
      '| ---: | --- | --- | ---: | ---: |',
      ...functions
        .slice(0, top)
        .map((fn, index) => `| ${index + 1} | \`${fn.name}\` | ${fn.location} | ${fn.selfMs.toFixed(0)} | ${(fn.share * 100).toFixed(1)} % |`),
      '',
    );
  }
  return lines.join('\n');
}

// On a virtual machine the host may run other guests on the servers' CPU while they have work: that time
// (steal) is not counted as theirs, but caches and clocks suffer, and the spread of the runs with them.
function stealSentence({ median, max }: { median: number; max: number }): string {
  const percent = (share: number): string => `${(share * 100).toFixed(share < 0.1 ? 1 : 0)} %`;
  return `Steal time (the host's use of the servers' CPU while they had work) during the measured HTTP runs: median ${percent(median)}, max ${percent(max)}; the more of it, the wider the spreads below.`;
}
