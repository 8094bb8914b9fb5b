import assert from 'node:assert/strict';
import { readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { useTemporaryDir } from '../../test/helpers/temporary-dir.js';
import { SpareRecordFiles } from './spare-record-files.js';

describe('SpareRecordFiles', () => {
  const temporaryDir = useTemporaryDir('keel-spares-');

  it('hands a retired file over to a new path, and says when it has none', async () => {
    const dir = temporaryDir();
    const spares = new SpareRecordFiles(dir, 4);
    await writeFile(join(dir, 'old'), 'purged record');
    spares.retire(join(dir, 'old'));
    assert.equal(spares.size, 1);
    assert.ok(spares.take(join(dir, 'new')));
    assert.equal(await readFile(join(dir, 'new'), 'utf8'), 'purged record');
    assert.equal(spares.take(join(dir, 'newer')), false);
  });

  it('deletes what it retires beyond its capacity', async () => {
    const dir = temporaryDir();
    const spares = new SpareRecordFiles(dir, 1);
    for (const name of ['a', 'b']) {
      await writeFile(join(dir, name), name);
      spares.retire(join(dir, name));
    }
    await new Promise((resolve) => setTimeout(resolve, 20));
    assert.equal((await readdir(join(dir, 'spare'))).length, 1);
    assert.deepEqual((await readdir(dir)).sort(), ['spare']);
  });

  it('shares its folder with another process: a file taken by one is skipped by the other', async () => {
    const dir = temporaryDir();
    const first = new SpareRecordFiles(dir, 4);
    await writeFile(join(dir, 'a'), 'a');
    first.retire(join(dir, 'a'));
    const second = new SpareRecordFiles(dir, 4);
    // An empty pool looks in the folder (at most once a second) and finds the other's spare.
    assert.equal(second.take(join(dir, 'x')), false);
    await second.settled();
    assert.ok(second.take(join(dir, 'x')));
    // The first still lists it: its rename fails with ENOENT, and it reports no spare left.
    assert.equal(first.take(join(dir, 'y')), false);
    assert.equal(await readFile(join(dir, 'x'), 'utf8'), 'a');
  });
});
