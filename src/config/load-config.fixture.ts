import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after } from 'node:test';

// Helpers of the configuration's tests: projects made of .env files, and the error a refused value gives.

const dirs: string[] = [];
after(() => dirs.forEach((dir) => rmSync(dir, { recursive: true, force: true })));

/** A temporary project directory holding these files, deleted after the suite. */
export function project(files: Record<string, string>): string {
  const dir = mkdtempSync(join(tmpdir(), 'keel-config-'));
  dirs.push(dir);
  for (const [name, content] of Object.entries(files)) writeFileSync(join(dir, name), content);
  return dir;
}

/** Asserts that `fn` refuses a value with KEEL_ERR_CONFIG_INVALID, on one line naming `variable` first. */
export function invalid(fn: () => unknown, variable: string): void {
  assert.throws(fn, (error: Error & { code?: string }) => {
    assert.equal(error.code, 'KEEL_ERR_CONFIG_INVALID');
    assert.match(error.message, new RegExp(`^${variable}=`));
    assert.doesNotMatch(error.message, /\n/);
    return true;
  });
}

/** The environment, port and host of a configuration. */
export function pick({ env, port, host }: { env: string; port: number; host: string }): { env: string; port: number; host: string } {
  return { env, port, host };
}
