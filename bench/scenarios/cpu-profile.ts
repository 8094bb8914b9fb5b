import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { drive } from '../lib/load.js';
import { seedHeaderObject } from '../lib/seed.js';
import { startServer } from '../lib/server-process.js';
import { settle } from './http.js';

export interface ProfileOptions {
  appEnv: 'dev' | 'prod';
  requests: number;
  serverPrefix: string[];
}

export interface HotFunction {
  name: string;
  location: string;
  selfMs: number;
  /** Share of the busy time (every sample but `(idle)`). */
  share: number;
}

interface CpuProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
}

interface CpuProfile {
  nodes: CpuProfileNode[];
  samples: number[];
  timeDeltas: number[];
}

const ROOT = fileURLToPath(new URL('../../', import.meta.url));

// Samples every 100 µs: a request of keel prod is a few tens of µs, the default 1 ms would see few of them.
const SAMPLING_MICROS = 100;

/**
 * Profiles keel's server under the seed request and returns its functions by self time. The profile covers
 * the measured requests only: the server is started and warmed up first (start-up would otherwise fill the
 * list with the module loader), then V8's profiler is started and stopped inside it over IPC.
 */
export async function profileKeel({ appEnv, requests, serverPrefix }: ProfileOptions): Promise<HotFunction[]> {
  const dir = mkdtempSync(join(tmpdir(), 'keel-cpu-prof-'));
  try {
    const server = await startServer({ file: 'keel', env: { APP_ENV: appEnv } }, serverPrefix);
    const file = join(dir, 'keel.cpuprofile');
    try {
      const load = { port: server.port, path: '/robots.txt', headers: seedHeaderObject(), expectStatus: 404 };
      await drive({ ...load, amount: warmupRequests(requests) });
      await server.startCpuProfile(SAMPLING_MICROS);
      await drive({ ...load, amount: requests });
      // The records keel writes after its last response are part of the profile.
      await settle();
      await server.stopCpuProfile(file);
    } finally {
      await server.stop();
    }
    return hotFunctions(JSON.parse(readFileSync(file, 'utf8')) as CpuProfile);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** The requests sent before profiling starts, so that the profile sees optimised code. */
export function warmupRequests(requests: number): number {
  return Math.max(1000, Math.round(requests / 5));
}

/** Sums the sampled self time of each function (by name and location), largest first; idle time left out. */
export function hotFunctions(profile: CpuProfile): HotFunction[] {
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  const totals = new Map<string, HotFunction>();
  let all = 0;
  profile.samples.forEach((id, index) => {
    const delta = (profile.timeDeltas[index] ?? 0) / 1000;
    const frame = byId.get(id)?.callFrame;
    if (frame === undefined || frame.functionName === '(idle)') return;
    all += delta;
    const location = frame.url === '' ? '(native)' : `${shortenUrl(frame.url)}:${frame.lineNumber + 1}`;
    const name = frame.functionName === '' ? '(anonymous)' : frame.functionName;
    const key = `${name} ${location}`;
    const entry = totals.get(key) ?? { name, location, selfMs: 0, share: 0 };
    entry.selfMs += delta;
    totals.set(key, entry);
  });
  const list = [...totals.values()].sort((a, b) => b.selfMs - a.selfMs);
  for (const entry of list) entry.share = all === 0 ? 0 : entry.selfMs / all;
  return list;
}

function shortenUrl(url: string): string {
  const path = url.startsWith('file://') ? fileURLToPath(url) : url;
  return path.startsWith(ROOT) ? relative(ROOT, path) : path;
}
