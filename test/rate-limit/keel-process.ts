import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from '../helpers/redis.js';

const ROOT = join(import.meta.dirname, '..', '..');
const TSX = import.meta.resolve('tsx');

export interface KeelProcess {
  port: number;
  child: ChildProcess;
  /** The process's dev.log so far. */
  log(): string;
  close(): Promise<void>;
}

/**
 * Runs the demo as its own process (`node demo/main.ts`, as `npm start` does) in a temporary project
 * directory, trusting loopback proxies like the committed demo, and resolves once it listens.
 */
export async function startKeelProcess(env: Record<string, string>): Promise<KeelProcess> {
  const projectDir = mkdtempSync(join(tmpdir(), 'keel-process-'));
  writeFileSync(join(projectDir, '.env'), 'TRUSTED_PROXIES=loopback,private_ranges\nTRUSTED_HEADERS=x-forwarded-for,x-forwarded-host,x-forwarded-proto,x-forwarded-port\n');
  const port = await freePort();
  const child = spawn(process.execPath, ['--import', TSX, join(ROOT, 'demo', 'main.ts')], {
    cwd: projectDir,
    // tsx reads tsconfig.json from the working directory, which is the temporary project here.
    env: { ...process.env, TSX_TSCONFIG_PATH: join(ROOT, 'tsconfig.json'), APP_ENV: 'dev', HOST: '127.0.0.1', PORT: String(port), KEEL_PROFILER: '0', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stderr = '';
  child.stderr!.on('data', (chunk: Buffer) => void (stderr += chunk.toString()));
  await new Promise<void>((resolve, reject) => {
    let stdout = '';
    child.stdout!.on('data', (chunk: Buffer) => {
      stdout += chunk.toString();
      if (stdout.includes('listening on')) resolve();
    });
    child.once('exit', (code) => reject(new Error(`keel exited with ${code} before listening: ${stderr.slice(-2000)}`)));
  });
  return {
    port,
    child,
    log: () => {
      try {
        return readFileSync(join(projectDir, 'var', 'log', 'dev.log'), 'utf8');
      } catch {
        return '';
      }
    },
    async close() {
      if (child.exitCode === null) {
        await new Promise<void>((resolve) => {
          child.once('exit', () => resolve());
          child.kill('SIGTERM');
        });
      }
      rmSync(projectDir, { recursive: true, force: true });
    },
  };
}
