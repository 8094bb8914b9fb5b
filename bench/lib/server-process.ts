import { spawn, type ChildProcess } from 'node:child_process';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { MemorySample, RunnerQuery } from '../servers/server-signals.js';

const SERVERS_DIR = fileURLToPath(new URL('../servers/', import.meta.url));
const START_TIMEOUT_MS = 30_000;
const STOP_TIMEOUT_MS = 10_000;

export interface ServerSpec {
  /** File name under bench/servers/ without `.ts`. */
  file: string;
  env?: Record<string, string>;
  /** Extra node flags, e.g. `--trace-gc`. */
  nodeFlags?: string[];
  /**
   * Another checkout to start the server from (bench:compare): its bench/servers/<file>.ts, run from its
   * root, where tsx finds its tsconfig.json (outside a project's folder tsx compiles JSX for React).
   */
  checkout?: string;
}

export interface ServerProcess {
  readonly pid: number;
  readonly port: number;
  /** The line the server announced itself with: `READY`, and what it says of its settings. */
  readonly ready: string;
  /** The server's own memory figures, asked over IPC. */
  memory(): Promise<MemorySample>;
  /** Starts V8's sampling profiler inside the server (over IPC, through node:inspector). */
  startCpuProfile(intervalMicros: number): Promise<void>;
  /** Stops it and has the server write the `.cpuprofile` JSON to `file`. */
  stopCpuProfile(file: string): Promise<void>;
  /** SIGTERM, then waits for the exit (SIGKILL after `graceMs`, 10 s by default). */
  stop(graceMs?: number): Promise<void>;
}

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address();
      probe.close(() => (typeof address === 'object' && address !== null ? resolve(address.port) : reject(new Error('no port'))));
    });
  });
}

/** Starts `bench/servers/<file>.ts` through tsx, behind the pinning prefix, and resolves once it prints READY. */
export async function startServer({ file, env = {}, nodeFlags = [], checkout }: ServerSpec, prefix: string[]): Promise<ServerProcess> {
  const port = await freePort();
  const serversDir = checkout === undefined ? SERVERS_DIR : join(checkout, 'bench', 'servers');
  const command = [...prefix, process.execPath, ...nodeFlags, '--import', 'tsx', join(serversDir, `${file}.ts`)];
  const child = spawn(command[0] as string, command.slice(1), {
    cwd: checkout,
    env: { ...process.env, ...env, PORT: String(port) },
    stdio: ['ignore', 'pipe', 'pipe', 'ipc'],
  });
  let stderr = '';
  child.stderr?.on('data', (chunk: Buffer) => {
    stderr = (stderr + chunk.toString()).slice(-4000);
  });
  const ready = await waitForReady(child, () => stderr, file);
  const pid = child.pid as number;
  return {
    pid,
    port,
    ready,
    memory: () => ask(child, 'memory') as Promise<MemorySample>,
    startCpuProfile: (intervalMicros) => expectAnswer(child, { cpuProfile: 'start', intervalMicros }, 'started'),
    stopCpuProfile: (file) => expectAnswer(child, { cpuProfile: 'stop', file }, 'stopped'),
    stop: (graceMs = STOP_TIMEOUT_MS) => stopChild(child, graceMs),
  };
}

function waitForReady(child: ChildProcess, stderr: () => string, file: string): Promise<string> {
  return new Promise((resolve, reject) => {
    let out = '';
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`${file}: no READY within ${START_TIMEOUT_MS} ms\n${stderr()}`));
    }, START_TIMEOUT_MS);
    const onData = (chunk: Buffer): void => {
      out += chunk.toString();
      const line = /^READY\b.*$/m.exec(out);
      if (line !== null && out.indexOf('\n', line.index) !== -1) {
        clearTimeout(timer);
        child.stdout?.off('data', onData);
        // Keep draining whatever the server prints so that a full pipe never blocks it.
        child.stdout?.resume();
        resolve(line[0]);
      }
    };
    child.stdout?.on('data', onData);
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`${file} exited with ${code} before READY\n${stderr()}`));
    });
  });
}

/** Sends one query and resolves with the server's next message (queries are never sent concurrently). */
function ask(child: ChildProcess, query: RunnerQuery, timeoutMs = 5_000): Promise<unknown> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no answer to ${JSON.stringify(query)} within ${timeoutMs} ms`)), timeoutMs);
    child.once('message', (message) => {
      clearTimeout(timer);
      resolve(message);
    });
    child.send(query);
  });
}

async function expectAnswer(child: ChildProcess, query: RunnerQuery, expected: string): Promise<void> {
  // Writing a profile of tens of thousands of requests takes a while.
  const answer = await ask(child, query, 60_000);
  if (answer !== expected) throw new Error(`${JSON.stringify(query)}: ${String(answer)}`);
}

function stopChild(child: ChildProcess, graceMs: number): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    const timer = setTimeout(() => child.kill('SIGKILL'), graceMs);
    child.once('exit', () => {
      clearTimeout(timer);
      resolve();
    });
    child.kill('SIGTERM');
  });
}
