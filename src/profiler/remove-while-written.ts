import { readdir, rm } from 'node:fs/promises';
import { join } from 'node:path';

/**
 * Deletes a file or folder that other processes may be writing into (a ring taking new slot files): the
 * deletion is retried when a file appears in a folder being emptied, and a folder that keeps filling up is
 * left where it is rather than failing the caller. A purge deletes what it found; what is written during
 * it may stay.
 */
export async function removeWhileWritten(path: string): Promise<void> {
  try {
    await rm(path, { recursive: true, force: true, maxRetries: 5, retryDelay: 10 });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOTEMPTY') throw error;
  }
}

/** removeWhileWritten for each entry of a folder, the folder itself kept (writers create new entries in it). */
export async function removeEachWhileWritten(dir: string): Promise<void> {
  let names: string[];
  try {
    names = await readdir(dir);
  } catch {
    return;
  }
  for (const name of names) await removeWhileWritten(join(dir, name));
}
