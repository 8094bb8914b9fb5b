import { readFileSync } from 'node:fs';
import { cpus, release } from 'node:os';
import { createRequire } from 'node:module';

export interface MachineInfo {
  cpuModel: string;
  cores: number;
  node: string;
  kernel: string;
  /** Installed versions of the peers and the load generator, from their package.json. */
  versions: Record<string, string>;
}

const PACKAGES = ['fastify', 'hono', '@hono/node-server', 'express', 'koa', '@koa/router', 'find-my-way', 'autocannon'];

export function describeMachine(): MachineInfo {
  const require = createRequire(import.meta.url);
  const versions: Record<string, string> = {};
  for (const name of PACKAGES) {
    try {
      versions[name] = (require(`${name}/package.json`) as { version: string }).version;
    } catch {
      // Some packages do not export their package.json; read it from node_modules instead.
      versions[name] = readVersionFromDisk(name);
    }
  }
  return { cpuModel: readCpuModel(), cores: cpus().length, node: process.version, kernel: release(), versions };
}

function readCpuModel(): string {
  try {
    const match = /^model name\s*:\s*(.+)$/m.exec(readFileSync('/proc/cpuinfo', 'utf8'));
    return match?.[1]?.trim() ?? 'unknown';
  } catch {
    return 'unknown';
  }
}

function readVersionFromDisk(name: string): string {
  try {
    const url = new URL(`../../node_modules/${name}/package.json`, import.meta.url);
    return (JSON.parse(readFileSync(url, 'utf8')) as { version: string }).version;
  } catch {
    return 'not installed';
  }
}
