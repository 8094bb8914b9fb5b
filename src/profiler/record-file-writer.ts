import { randomBytes } from 'node:crypto';
import { closeSync, ftruncateSync, mkdirSync, openSync, renameSync, rmSync, writeFileSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import type { SpareRecordFiles } from './spare-record-files.js';

/**
 * Puts one record's bytes at its path, synchronously (a few kB: the thread pool's round trips would cost
 * more than the write, and an event-loop turn each): in a spare file when there is one, else in a file
 * created in place, else (the path is taken) through a temporary file renamed over it. Either way the file
 * is in place before the store appends its index line: a crash mid-write leaves an unindexed file that fails
 * to decompress or names another token, which reads report as missing.
 */
export class RecordFileWriter {
  readonly #spares: SpareRecordFiles;
  // Folders known to exist: spares a system call per write.
  readonly #folders = new Set<string>();

  constructor(spares: SpareRecordFiles) {
    this.#spares = spares;
  }

  write(path: string, token: string, data: Buffer): void {
    const folder = join(path, '..');
    if (!this.#folders.has(folder)) {
      mkdirSync(folder, { recursive: true });
      this.#folders.add(folder);
    }
    // A purged record's file, renamed to the new token and overwritten in place, costs a tenth of creating one.
    if (this.#spares.take(path)) {
      overwrite(path, data);
      return;
    }
    // No spare: created in place (O_CREAT|O_EXCL), at a fraction of the cost of a temporary file renamed
    // into place, whose rename ext4 makes pay for a data flush.
    try {
      writeFileSync(path, data, { flag: 'wx' });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') {
        // A purge (here or in another process) may have removed the folder meanwhile.
        this.#folders.delete(folder);
        throw error;
      }
      // The file exists: this record written again, an older record with the same token, or a file left by
      // a crash mid-write. The new content replaces it and gets an index line of its own either way (search
      // lists a token once, newest first), so that no file is ever left without one.
      this.#replace(folder, path, token, data);
    }
  }

  /** Forgets which folders exist (the store's content was deleted). */
  forgetFolders(): void {
    this.#folders.clear();
  }

  #replace(folder: string, path: string, token: string, data: Buffer): void {
    const temporary = join(folder, `.${token}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`);
    try {
      writeFileSync(temporary, data);
      renameSync(temporary, path);
    } catch (error) {
      rmSync(temporary, { force: true });
      this.#folders.delete(folder);
      throw error;
    }
  }
}

function overwrite(path: string, data: Buffer): void {
  let fd: number | undefined;
  try {
    fd = openSync(path, 'r+');
    for (let offset = 0; offset < data.length; ) offset += writeSync(fd, data, offset, data.length - offset, offset);
    ftruncateSync(fd, data.length);
  } catch (error) {
    // Half a record under a token no index line names yet: nothing would ever delete it.
    rmSync(path, { force: true });
    throw error;
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}
