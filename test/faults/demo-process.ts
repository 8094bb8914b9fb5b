import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const MAIN = join(import.meta.dirname, '..', '..', 'demo', 'main.ts');
// Absolute, because the child runs from its own project directory, where `tsx` cannot be resolved by name.
const TSX = import.meta.resolve('tsx');
// tsx reads tsconfig.json from the working directory; without the project's, JSX would compile for React.
const TSCONFIG = join(import.meta.dirname, '..', '..', 'tsconfig.json');
const LISTENING = /http:\/\/127\.0\.0\.1:(\d+)/;

export interface DemoProcess {
  child: ChildProcess;
  port: number;
  projectDir: string;
  stdout(): string;
  stderr(): string;
  /** Resolves with the exit code (or the signal) once the process has exited. */
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  /** Resident set size of the process now, in bytes (Linux /proc). */
  rss(): number;
  /** Kills the process if still running (SIGKILL after 10 s of SIGTERM) and removes its directory unless kept. */
  close(options?: { keepDir?: boolean }): Promise<void>;
}

export interface SpawnDemoOptions {
  env?: Record<string, string>;
  /** Reuse a project directory (a restart); a fresh temporary one otherwise. */
  projectDir?: string;
  /** How long to wait for the listening line. */
  startTimeout?: number;
}

/**
 * Runs `demo/main.ts` (what `npm start` runs) as a child process on a free port of 127.0.0.1, from its own
 * project directory, and waits for the line naming its URL (the text line in dev, the JSON line in prod).
 */
export async function spawnDemo({ env = {}, projectDir, startTimeout = 20_000 }: SpawnDemoOptions = {}): Promise<DemoProcess> {
  const dir = projectDir ?? mkdtempSync(join(tmpdir(), 'keel-proc-'));
  if (projectDir === undefined) {
    writeFileSync(join(dir, '.env'), 'TRUSTED_PROXIES=loopback\nTRUSTED_HEADERS=x-forwarded-for,x-forwarded-host,x-forwarded-proto,x-forwarded-port\n');
  }
  const child = spawn(process.execPath, ['--import', TSX, MAIN], {
    cwd: dir,
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? dir, TSX_TSCONFIG_PATH: TSCONFIG, PORT: '0', HOST: '127.0.0.1', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  let err = '';
  child.stdout?.on('data', (chunk: Buffer) => (out += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => {
    // dev mirrors every record on stderr: keep only the tail, for failure messages.
    err = (err + chunk.toString()).slice(-20_000);
  });
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => child.once('exit', (code, signal) => resolve({ code, signal })));

  const port = await new Promise<number>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`demo did not start within ${startTimeout} ms:\n${out}\n${err}`)), startTimeout);
    const check = (): void => {
      const match = LISTENING.exec(out);
      if (match === null) return;
      clearTimeout(timer);
      child.stdout?.off('data', check);
      resolve(Number(match[1]));
    };
    child.stdout?.on('data', check);
    void exited.then(({ code, signal }) => {
      clearTimeout(timer);
      reject(new Error(`demo exited (${code ?? signal}) before listening:\n${out}\n${err}`));
    });
  }).catch(async (error: unknown) => {
    child.kill('SIGKILL');
    if (projectDir === undefined) rmSync(dir, { recursive: true, force: true });
    throw error;
  });

  return {
    child,
    port,
    projectDir: dir,
    stdout: () => out,
    stderr: () => err,
    exited,
    rss: () => readRss(child.pid),
    async close({ keepDir = false } = {}) {
      if (child.exitCode === null && child.signalCode === null) {
        const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
        child.kill('SIGTERM');
        await exited;
        clearTimeout(timer);
      }
      if (!keepDir) rmSync(dir, { recursive: true, force: true });
    },
  };
}

function readRss(pid: number | undefined): number {
  if (pid === undefined) return 0;
  try {
    const match = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return match === null ? 0 : Number(match[1]) * 1024;
  } catch {
    return 0;
  }
}
