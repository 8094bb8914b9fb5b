import { spawn, type ChildProcess } from 'node:child_process';
import type { Readable } from 'node:stream';
import { fileURLToPath } from 'node:url';

export const REPO_ROOT = fileURLToPath(new URL('../..', import.meta.url));
export const KEEL_BIN = fileURLToPath(new URL('../../bin/keel.js', import.meta.url));
export const DEMO_APP = fileURLToPath(new URL('../../demo/routes.tsx', import.meta.url));

export interface KeelRun {
  code: number | null;
  stdout: string;
  stderr: string;
}

export interface KeelRunOptions {
  cwd?: string;
  env?: Record<string, string>;
}

/**
 * The environment of the machine minus everything keel reads, so that a developer's own settings cannot
 * change what a test sees.
 */
export function cleanEnv(extra: Record<string, string> = {}): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [name, value] of Object.entries(process.env)) {
    if (value === undefined || /^(APP_|KEEL_|RATE_LIMIT_|TRUSTED_|LOG_|PORT$|HOST$|BODY_LIMIT$|NO_COLOR$|TSX_TSCONFIG_PATH$)/.test(name)) continue;
    env[name] = value;
  }
  return { ...env, ...extra };
}

/** Runs the real binary (`node bin/keel.js …`) to completion, output captured through pipes. */
export function runKeel(args: readonly string[], { cwd = REPO_ROOT, env = {} }: KeelRunOptions = {}): Promise<KeelRun> {
  const child = spawnKeel(args, { cwd, env });
  let stdout = '';
  let stderr = '';
  child.stdout!.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
  child.stderr!.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
  return new Promise((resolve, reject) => {
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

export function spawnKeel(args: readonly string[], { cwd = REPO_ROOT, env = {} }: KeelRunOptions = {}): ChildProcess {
  return spawn(process.execPath, [KEEL_BIN, ...args], { cwd, env: cleanEnv(env), stdio: ['ignore', 'pipe', 'pipe'] });
}

/**
 * Resolves once what `stream` writes from now on matches `pattern`, a line the process writes when it gets
 * somewhere (a request arrived, a stop begun); rejects if the stream ends first.
 */
export function untilOutput(stream: Readable, pattern: RegExp): Promise<void> {
  let text = '';
  return new Promise((resolve, reject) => {
    const read = (chunk: string | Buffer) => {
      text += String(chunk);
      if (!pattern.test(text)) return;
      stream.off('data', read);
      resolve();
    };
    stream.on('data', read);
    stream.once('end', () => reject(new Error(`the process ended without writing ${pattern}: ${text}`)));
  });
}
