import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach } from 'node:test';

/**
 * A fresh temporary directory for each test of the calling suite, deleted after it. Call inside describe().
 * @example const dir = useTemporaryDir('keel-store-'); it('…', () => writeFile(join(dir(), 'a'), 'a'));
 */
export function useTemporaryDir(prefix: string): () => string {
  let dir: string | undefined;
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), prefix));
  });
  afterEach(async () => {
    if (dir !== undefined) await rm(dir, { recursive: true, force: true });
    dir = undefined;
  });
  return () => {
    if (dir === undefined) throw new Error('useTemporaryDir: no test is running');
    return dir;
  };
}
