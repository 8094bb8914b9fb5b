import { existsSync, mkdirSync } from 'node:fs';
import { dirname } from 'node:path';

/**
 * `mkdirSync(path, { recursive: true })`, failing with the real reason. Node's recursive mkdir reports
 * ENOENT for a folder it cannot create under an existing read-only or forbidden one (EROFS, EACCES):
 * the message then blamed a missing folder instead of the disk. The first missing folder is created on
 * its own to learn why.
 * @example makeDirSync('var/log') // on a read-only var/: throws EROFS, not ENOENT
 */
export function makeDirSync(path: string, fs: Pick<typeof import('node:fs'), 'mkdirSync' | 'existsSync'> = { mkdirSync, existsSync }): void {
  try {
    fs.mkdirSync(path, { recursive: true });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
    let missing = path;
    while (dirname(missing) !== missing && !fs.existsSync(dirname(missing))) missing = dirname(missing);
    // Throws the reason; if it succeeds after all (another process made it meanwhile), the rest follows.
    fs.mkdirSync(missing);
    fs.mkdirSync(path, { recursive: true });
  }
}
