import { execFileSync } from 'node:child_process';
import { availableParallelism } from 'node:os';

/** How the run is laid out on the CPUs: servers on one core, the load generator on another. */
export interface Pinning {
  /** Prefix for server commands (`taskset -c 1`), empty when unpinned. */
  serverPrefix: string[];
  /** The CPU the servers run on, undefined when unpinned. */
  serverCore: number | undefined;
  /** Human-readable account of the layout, printed and written into the report. */
  note: string;
}

const SERVER_CORE = '1';
const DRIVER_CORE = '0';

/**
 * Pins the current process (every thread, autocannon runs in it) to core 0 and returns the prefix that
 * starts servers on core 1. Without taskset or with a single core the run goes on unpinned, and says so.
 */
export function pinProcesses(): Pinning {
  if (availableParallelism() < 2) return { serverPrefix: [], serverCore: undefined, note: 'unpinned: fewer than 2 cores' };
  try {
    execFileSync('taskset', ['-a', '-cp', DRIVER_CORE, String(process.pid)], { stdio: 'ignore' });
  } catch {
    return { serverPrefix: [], serverCore: undefined, note: 'unpinned: taskset is missing (install util-linux)' };
  }
  return {
    serverPrefix: ['taskset', '-c', SERVER_CORE],
    serverCore: Number(SERVER_CORE),
    note: `server pinned to core ${SERVER_CORE} (taskset -c ${SERVER_CORE}), load generator pinned to core ${DRIVER_CORE}`,
  };
}
