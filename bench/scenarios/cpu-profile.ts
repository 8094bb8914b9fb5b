import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { drive } from '../lib/load.js';
import { seedHeaderObject } from '../lib/seed.js';
import { startServer } from '../lib/server-process.js';

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

/** Profiles keel's server (`node --cpu-prof`) under the seed request and returns its functions by self time. */
export async function profileKeel({ appEnv, requests, serverPrefix }: ProfileOptions): Promise<HotFunction[]> {
  const dir = mkdtempSync(join(tmpdir(), 'keel-cpu-prof-'));
  try {
    const server = await startServer({ file: 'keel', env: { APP_ENV: appEnv }, nodeFlags: ['--cpu-prof', `--cpu-prof-dir=${dir}`] }, serverPrefix);
    try {
      await drive({ port: server.port, path: '/robots.txt', headers: seedHeaderObject(), amount: requests, expectStatus: 404 });
    } finally {
      // keel drains its pending profile writes before exiting, and only then is the .cpuprofile written.
      await server.stop(120_000);
    }
    const file = readdirSync(dir).find((name) => name.endsWith('.cpuprofile'));
    if (file === undefined) throw new Error('the server wrote no .cpuprofile');
    return hotFunctions(JSON.parse(readFileSync(join(dir, file), 'utf8')) as CpuProfile);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
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
