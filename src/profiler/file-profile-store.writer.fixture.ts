/**
 * A separate process writing records into a FileProfileStore, for the multi-process tests:
 * `node --import tsx file-profile-store.writer.fixture.ts <dir> <token prefix> <count> <maxRecords> <segmentRecords>`.
 * Prints `wrote <n>` after each record, so a test can kill it in the middle of its writes.
 */
import { FileProfileStore } from './file-profile-store.js';
import { createTestProfile } from './profile-store.contract.js';

const [dir, prefix, count, maxRecords, segmentRecords] = process.argv.slice(2);
const store = new FileProfileStore({ dir: dir!, maxRecords: Number(maxRecords), segmentRecords: Number(segmentRecords) });
const width = 6 - prefix!.length;
for (let i = 0; i < Number(count); i++) {
  const token = `${prefix}${i.toString(16).padStart(width, '0')}`;
  // A sizeable record, so that a kill often lands inside a write.
  await store.write(createTestProfile(token, { time: Math.floor(Date.now() / 1000), collectors: { logger: { logs: Array.from({ length: 50 }, (_, n) => ({ message: `line ${n} of ${token}` })) } } }));
  process.stdout.write(`wrote ${i + 1}\n`);
}
