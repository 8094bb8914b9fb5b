import { drive } from '../lib/load.js';
import { cpuMicrosBetween, readCoreTicks, readCpuTicks, stealShareBetween } from '../lib/proc-stat.js';
import { seedHeaderObject } from '../lib/seed.js';
import { startServer, type ServerProcess } from '../lib/server-process.js';
import { CONTENDERS, HTTP_SCENARIOS, type Contender, type HttpScenario } from './contenders.js';

export interface HttpOptions {
  repetitions: number;
  /** Requests of each of the two warm-up passes; the second also measures the rate that sizes the measured runs. */
  warmupRequests: number;
  /**
   * Each measured run sends enough requests for about this much server CPU time: with 100 clock ticks a
   * second, 0.8 s is 80 ticks, so the one-tick granularity of /proc costs at most ~1 %.
   */
  cpuSecondsPerRun: number;
  minRequests: number;
  serverPrefix: string[];
  /** The servers' CPU, whose steal time each run reports (the whole machine's when undefined). */
  serverCore: number | undefined;
  log: (line: string) => void;
}

/** One measured run of one contender on one scenario. */
export interface HttpRun {
  scenario: HttpScenario['id'];
  contender: string;
  repetition: number;
  served: number;
  /** Server CPU time (user + system, all threads) per request, in µs. */
  cpuMicrosPerRequest: number;
  requestsPerSecond: number;
  p50: number;
  p99: number;
  /** Share of the server CPU's time the hypervisor took during the run (see CoreTicks). */
  stealShare: number;
}

/** Warm-up and least requests of a full run's HTTP runs (bench and bench:compare alike). */
export const FULL_RUN_REQUESTS = { warmupRequests: 2000, minRequests: 2000 } as const;

/** Waits 150 ms after a run's last answer: work a server defers past it (a profile written at terminate) still belongs to the run. */
export function settle(): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, 150));
}

/**
 * Starts every contender once, pinned, then for each scenario warms each one up and runs the contenders
 * interleaved (A B C … A B C …) so that a noisy moment of the shared machine hits all of them alike.
 */
export async function runHttpBench(options: HttpOptions): Promise<HttpRun[]> {
  const { log } = options;
  const servers = new Map<string, ServerProcess>();
  const runs: HttpRun[] = [];
  try {
    const started = await Promise.all(CONTENDERS.map((contender) => startServer(contender.spec, options.serverPrefix)));
    CONTENDERS.forEach((contender, index) => servers.set(contender.id, started[index] as ServerProcess));
    for (const scenario of HTTP_SCENARIOS) {
      const amounts = new Map<string, number>();
      for (const contender of CONTENDERS) {
        const warm = await warmUp(servers.get(contender.id) as ServerProcess, scenario, options);
        amounts.set(contender.id, warm.amount);
        log(`  warm-up ${scenario.id} ${contender.id}: ${warm.cpuMicrosPerRequest.toFixed(0)} µs CPU/req, ${Math.round(warm.requestsPerSecond)} req/s`);
      }
      for (let repetition = 0; repetition < options.repetitions; repetition++) {
        for (const contender of CONTENDERS) {
          const run = await measureRun(servers.get(contender.id) as ServerProcess, contender, scenario, amounts.get(contender.id) as number, repetition, options.serverCore);
          runs.push(run);
          log(`  ${scenario.id} #${repetition + 1} ${contender.id}: ${run.cpuMicrosPerRequest.toFixed(1)} µs CPU/req, ${Math.round(run.requestsPerSecond)} req/s, steal ${(run.stealShare * 100).toFixed(0)} %`);
        }
      }
    }
  } finally {
    await Promise.all([...servers.values()].map((server) => server.stop()));
  }
  return runs;
}

async function measureRun(server: ServerProcess, contender: Contender, scenario: HttpScenario, amount: number, repetition: number, core: number | undefined): Promise<HttpRun> {
  const result = await measure(server, scenario, amount, core);
  return { scenario: scenario.id, contender: contender.id, repetition, ...result };
}

/**
 * Warms a server up on the scenario and sizes its measured runs: enough requests for about
 * `cpuSecondsPerRun` of its CPU. The first pass runs mostly unoptimised code and its CPU is a few ticks:
 * sized from it, the measured runs came out several times too short (keel prod's 404: 2 000 requests,
 * 9 ticks) and their figures were mostly the 10 ms granularity of /proc. The second pass, on warm code,
 * sizes them.
 */
export async function warmUp(
  server: ServerProcess,
  scenario: Pick<HttpScenario, 'path' | 'expectStatus'>,
  { warmupRequests, minRequests, cpuSecondsPerRun, serverCore }: Pick<HttpOptions, 'warmupRequests' | 'minRequests' | 'cpuSecondsPerRun' | 'serverCore'>,
): Promise<{ amount: number; cpuMicrosPerRequest: number; requestsPerSecond: number }> {
  await measure(server, scenario, warmupRequests, serverCore);
  const warm = await measure(server, scenario, warmupRequests, serverCore);
  const perRequest = Math.max(warm.cpuMicrosPerRequest, 1);
  return { amount: Math.max(minRequests, Math.round((cpuSecondsPerRun * 1e6) / perRequest)), cpuMicrosPerRequest: perRequest, requestsPerSecond: warm.requestsPerSecond };
}

/** One run: `amount` requests of the scenario, and the server's CPU time (every thread) per request served. */
export async function measure(server: ServerProcess, scenario: Pick<HttpScenario, 'path' | 'expectStatus'>, amount: number, core: number | undefined): Promise<Omit<HttpRun, 'scenario' | 'contender' | 'repetition'>> {
  const coreBefore = readCoreTicks(core);
  const before = readCpuTicks(server.pid);
  const load = await drive({ port: server.port, path: scenario.path, headers: seedHeaderObject(), amount, expectStatus: scenario.expectStatus });
  await settle();
  const after = readCpuTicks(server.pid);
  const coreAfter = readCoreTicks(core);
  return {
    served: load.served,
    cpuMicrosPerRequest: cpuMicrosBetween(before, after) / load.served,
    requestsPerSecond: load.requestsPerSecond,
    p50: load.p50,
    p99: load.p99,
    stealShare: stealShareBetween(coreBefore, coreAfter),
  };
}
