import { spawn, type ChildProcess } from 'node:child_process';
import { createServer } from 'node:net';
import { fileURLToPath } from 'node:url';
import type { MemorySample } from '../servers/server-signals.js';

const SERVERS_DIR = fileURLToPath(new URL('../servers/', import.meta.url));
const START_TIMEOUT_MS = 30_000;
const STOP_TIMEOUT_MS = 10_000;

export interface ServerSpec {
  /** File name under bench/servers/ without `.ts`. */
  file: string;
  env?: Record<string, string>;
  /** Extra node flags, e.g. `--cpu-prof`. */
  nodeFlags?: string[];
}

export interface ServerProcess {
  readonly pid: number;
  readonly port: number;
  /** The server's own memory figures, asked over IPC. */
  memory(): Promise<MemorySample>;
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
export async function startServer({ file, env = {}, nodeFlags = [] }: ServerSpec, prefix: string[]): Promise<ServerProcess> {
  const port = await freePort();
  const command = [...prefix, process.execPath, ...nodeFlags, '--import', 'tsx', `${SERVERS_DIR}${file}.ts`];
  const child = spawn(command[0] as string, command.slice(1), {
    env: { ...process.env, ...env, PORT: String(port) },
    stdio: ['ignore', 'pipe', 'pipe', 'ipc'],
  });
  let stderr = '';
  child.stderr?.on('data', (chunk: Buffer) => {
    stderr = (stderr + chunk.toString()).slice(-4000);
  });
  await waitForReady(child, () => stderr, file);
  const pid = child.pid as number;
  return {
    pid,
    port,
    memory: () => askMemory(child),
    stop: (graceMs = STOP_TIMEOUT_MS) => stopChild(child, graceMs),
  };
}

function waitForReady(child: ChildProcess, stderr: () => string, file: string): Promise<void> {
  return new Promise((resolve, reject) => {
    let out = '';
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`${file}: no READY within ${START_TIMEOUT_MS} ms\n${stderr()}`));
    }, START_TIMEOUT_MS);
    const onData = (chunk: Buffer): void => {
      out += chunk.toString();
      if (out.includes('READY')) {
        clearTimeout(timer);
        child.stdout?.off('data', onData);
        // Keep draining whatever the server prints so that a full pipe never blocks it.
        child.stdout?.resume();
        resolve();
      }
    };
    child.stdout?.on('data', onData);
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`${file} exited with ${code} before READY\n${stderr()}`));
    });
  });
}

function askMemory(child: ChildProcess): Promise<MemorySample> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('no memory answer within 5 s')), 5_000);
    child.once('message', (message) => {
      clearTimeout(timer);
      resolve(message as MemorySample);
    });
    child.send('memory');
  });
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
