import assert from 'node:assert/strict';
import fs, { readdirSync, readFileSync, statSync } from 'node:fs';
import { syncBuiltinESMExports } from 'node:module';
import { readdir, readFile, rm, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, it, mock } from 'node:test';
import fc from 'fast-check';
import { useTemporaryDir } from '../../test/helpers/temporary-dir.js';
import { isRingName, RecordRing, RING_IDLE_MS, ringSlotPath } from './record-ring.js';

describe('RecordRing', () => {
  const temporaryDir = useTemporaryDir('keel-ring-');

  it('writes its slots in turn, then overwrites them in place, leaving what follows the new length untouched', async () => {
    const ring = new RecordRing(temporaryDir(), 3);
    const first = ring.write(Buffer.from('first record'));
    assert.ok(isRingName(first.ring));
    assert.deepEqual([ring.write(Buffer.from('b')).slot, ring.write(Buffer.from('c')).slot], [1, 2]);
    const inode = (await stat(ringSlotPath(temporaryDir(), first))).ino;
    const again = ring.write(Buffer.from('new'));
    assert.deepEqual(again, { ring: first.ring, slot: 0, length: 3 });
    const path = ringSlotPath(temporaryDir(), again);
    assert.equal((await stat(path)).ino, inode);
    assert.equal((await readFile(path, 'utf8')).slice(0, again.length), 'new');
    assert.deepEqual((await readdir(join(temporaryDir(), first.ring))).sort(), ['0', '1', '2']);
  });

  it('counts records, not slots: a slot holding a group is reused once keepRecords newer records are written', async () => {
    const ring = new RecordRing(temporaryDir(), 10);
    const groups = [4, 4, 4, 1, 1, 4];
    const slots = groups.map((records) => ring.write(Buffer.from(`group of ${records}`), records).slot);
    // Slot 0 holds records 1-4: it is taken by the fifth write, the first after which 5-14 are the newest ten.
    // Slot 1 (5-8) is next in turn, taken by the group of 4 that makes 9-18 the newest ten.
    assert.deepEqual(slots, [0, 1, 2, 3, 0, 1]);
    // Slot 2 holds 9-12: a group of 2 would leave 11 and 12 among the newest ten, so a slot is added.
    assert.equal(ring.write(Buffer.from('x'), 2).slot, 4);
    // With the next group of 2, 13-22 are the newest ten: slot 2 is reused.
    assert.equal(ring.write(Buffer.from('y'), 2).slot, 2);
    const ringDir = join(temporaryDir(), ring.id);
    assert.deepEqual((await readdir(ringDir)).sort(), ['0', '1', '2', '3', '4']);
    ring.close();
  });

  it('gives files back once its slots hold more records each than when they were made (quiet, then busy)', async () => {
    const ring = new RecordRing(temporaryDir(), 40);
    for (let i = 0; i < 40; i++) ring.write(Buffer.from(`single ${i}`));
    const ringDir = join(temporaryDir(), ring.id);
    assert.equal((await readdir(ringDir)).length, 40);
    // Groups of ten: four slots hold the newest forty records; the oldest of them may go at the next write.
    const groups = Array.from({ length: 40 }, (_, i) => ring.write(Buffer.from(`group ${i}`), 10));
    assert.equal((await readdir(ringDir)).length, 4);
    for (const location of groups.slice(-4)) assert.match(await readFile(ringSlotPath(temporaryDir(), location), 'utf8'), /^group /);
    // The numbers given back are given out again when the ring has to grow.
    const slots = Array.from({ length: 40 }, (_, i) => ring.write(Buffer.from(`single again ${i}`)).slot);
    assert.ok(Math.max(...slots) < 40, `slot numbers stay below the most files the ring had: ${Math.max(...slots)}`);
    assert.equal((await readdir(ringDir)).length, 40);
    ring.close();
  });

  it('never overwrites nor deletes a slot holding one of the newest keepRecords records, whatever the group sizes', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 30 }), fc.integer({ min: 0, max: 8 }), fc.array(fc.integer({ min: 1, max: 12 }), { minLength: 1, maxLength: 120 }), (keep, keepOpen, sizes) => {
        const ring = new RecordRing(temporaryDir(), keep, { keepOpen });
        // Newest first: each write's location and the records it holds.
        const written: { text: string; slot: number; records: number }[] = [];
        sizes.forEach((records, i) => {
          const text = `write ${i}`;
          const { slot } = ring.write(Buffer.from(text), records);
          written.unshift({ text, slot, records });
          let newest = 0;
          for (const entry of written) {
            if (newest >= keep) break;
            newest += entry.records;
            const path = ringSlotPath(temporaryDir(), { ring: ring.id, slot: entry.slot });
            assert.equal(readFileSync(path, 'latin1').slice(0, entry.text.length), entry.text, `slot ${entry.slot} after write ${i}`);
          }
          // Every slot holds at least one record the ring must keep, but for the oldest.
          const files = readdirSync(join(temporaryDir(), ring.id)).length;
          assert.ok(files <= keep + 1, `${files} files after write ${i}`);
        });
        ring.close();
      }),
      { numRuns: 60 },
    );
  });

  it('gives back a new slot it could not write (a full disk): no file, descriptor nor number left behind', async () => {
    const ring = new RecordRing(temporaryDir(), 1000, { keepOpen: 1000 });
    ring.write(Buffer.from('written'));
    const full = Object.assign(new Error('ENOSPC: no space left on device, write'), { code: 'ENOSPC' });
    const openBefore = readdirSync('/proc/self/fd').length;
    const writes = mock.method(fs, 'writeSync', () => {
      throw full;
    });
    syncBuiltinESMExports();
    try {
      for (let i = 0; i < 50; i++) assert.throws(() => ring.write(Buffer.from(`record ${i}`)), full);
    } finally {
      writes.mock.restore();
      syncBuiltinESMExports();
    }
    assert.deepEqual(await readdir(join(temporaryDir(), ring.id)), ['0']);
    assert.equal(readdirSync('/proc/self/fd').length, openBefore);
    // Once there is room again, the next record takes the next number.
    assert.equal(ring.write(Buffer.from('room again')).slot, 1);
    ring.close();
  });

  it('starts a new ring when its folder is gone', async () => {
    const ring = new RecordRing(temporaryDir(), 3);
    const first = ring.write(Buffer.from('a'));
    ring.write(Buffer.from('b'));
    await rm(join(temporaryDir(), first.ring), { recursive: true });
    const next = ring.write(Buffer.from('c'));
    assert.notEqual(next.ring, first.ring);
    assert.equal(next.slot, 0);
    assert.equal(await readFile(ringSlotPath(temporaryDir(), next), 'utf8'), 'c');
  });

  it('overwrites through the files it keeps open, and drops them for a new ring once its folder is gone', async () => {
    const ring = new RecordRing(temporaryDir(), 2, { keepOpen: 1 });
    const first = ring.write(Buffer.from('a'));
    ring.write(Buffer.from('b'));
    // Slot 0 through its open file, slot 1 (beyond keepOpen) opened by path again.
    assert.deepEqual(ring.write(Buffer.from('c')), { ring: first.ring, slot: 0, length: 1 });
    assert.deepEqual(ring.write(Buffer.from('d')), { ring: first.ring, slot: 1, length: 1 });
    assert.equal(await readFile(ringSlotPath(temporaryDir(), first), 'utf8'), 'c');
    // Another process empties the store: the open file would take the next record into a deleted file.
    await rm(join(temporaryDir(), first.ring), { recursive: true });
    ring.revalidate();
    const next = ring.write(Buffer.from('e'));
    assert.notEqual(next.ring, first.ring);
    assert.equal(await readFile(ringSlotPath(temporaryDir(), next), 'utf8'), 'e');
  });

  it('closes the files it keeps open, and opens them again for later writes', async () => {
    const openFiles = async () => (await readdir('/proc/self/fd')).length;
    const before = await openFiles();
    const ring = new RecordRing(temporaryDir(), 3);
    const first = ring.write(Buffer.from('a'));
    ring.write(Buffer.from('b'));
    assert.equal(await openFiles(), before + 2);
    ring.close();
    assert.equal(await openFiles(), before);
    ring.write(Buffer.from('c'));
    assert.deepEqual(ring.write(Buffer.from('d')), { ring: first.ring, slot: 0, length: 1 });
    assert.equal(await readFile(ringSlotPath(temporaryDir(), first), 'utf8'), 'd');
    ring.close();
  });

  it('touches its folder while it writes, and starts a new ring after an idle spell the purge may have taken it for dead', () => {
    mock.timers.enable({ apis: ['Date'], now: Date.now() });
    try {
      // One slot: the second write overwrites it, and does not create a file, which sets the folder's time too.
      const ring = new RecordRing(temporaryDir(), 1);
      const first = ring.write(Buffer.from('a'));
      mock.timers.tick(RING_IDLE_MS / 4 + 1000);
      assert.equal(ring.write(Buffer.from('b')).ring, first.ring);
      // Touched: the folder's time is the writer's now, which the purge compares with RING_IDLE_MS.
      assert.ok(Math.abs(statSync(join(temporaryDir(), first.ring)).mtimeMs - Date.now()) < 1000);
      mock.timers.tick(RING_IDLE_MS / 2 + 1000);
      const after = ring.write(Buffer.from('c'));
      assert.notEqual(after.ring, first.ring);
      assert.equal(after.slot, 0);
    } finally {
      mock.timers.reset();
    }
  });
});
