import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { useTemporaryDir } from '../../test/helpers/temporary-dir.js';
import { fileURLToPath } from 'node:url';
import { FileProfileStore } from './file-profile-store.js';
import { createTestProfile } from './profile-store.contract.js';

const WRITER = fileURLToPath(new URL('./file-profile-store.writer.fixture.ts', import.meta.url));

interface Writer {
  /** Resolves with the exit code, or the signal that ended the process. */
  exited: Promise<number | string>;
  /** Resolves once the writer reports at least `count` records written. */
  wrote(count: number): Promise<void>;
  kill(): void;
}

function startWriter(dir: string, prefix: string, count: number, maxRecords: number, segmentRecords: number): Writer {
  const child = spawn(process.execPath, ['--import', 'tsx', WRITER, dir, prefix, String(count), String(maxRecords), String(segmentRecords)], { stdio: ['ignore', 'pipe', 'inherit'] });
  let written = 0;
  const waiting: { count: number; resolve: () => void }[] = [];
  let buffered = '';
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
    buffered += chunk;
    const lines = buffered.split('\n');
    buffered = lines.pop()!;
    for (const line of lines) if (line.startsWith('wrote ')) written = Number(line.slice(6));
    for (const wait of waiting.filter((w) => written >= w.count)) wait.resolve();
  });
  const exited = new Promise<number | string>((resolve) => child.once('exit', (code, signal) => resolve(code ?? signal ?? 'unknown')));
  return {
    exited,
    wrote: (target) => (written >= target ? Promise.resolve() : new Promise((resolve) => waiting.push({ count: target, resolve }))),
    kill: () => child.kill('SIGKILL'),
  };
}

/** Record files by ring. */
async function ringFiles(dir: string): Promise<Map<string, string[]>> {
  const rings = new Map<string, string[]>();
  for (const ring of await readdir(join(dir, 'rings'))) rings.set(ring, await readdir(join(dir, 'rings', ring)));
  return rings;
}

async function indexLines(dir: string): Promise<string[]> {
  const lines: string[] = [];
  for (const name of await readdir(dir)) {
    if (name.startsWith('index')) lines.push(...(await readFile(join(dir, name), 'utf8')).split('\n').filter(Boolean));
  }
  return lines;
}

describe('FileProfileStore shared by several processes', () => {
  const temporaryDir = useTemporaryDir('keel-profiler-procs-');

  it('keeps every record and every index line intact when two processes write and seal segments at once', async () => {
    const dir = temporaryDir();
    const writers = [startWriter(dir, 'a', 200, 10_000, 20), startWriter(dir, 'b', 200, 10_000, 20)];
    assert.deepEqual(await Promise.all(writers.map((w) => w.exited)), [0, 0]);
    const lines = await indexLines(dir);
    assert.equal(lines.length, 400);
    assert.ok(lines.every((line) => /^[ab][0-9a-f]{5},203\.0\.113\.7,GET,https:\/\/app\.example\.test\/robots\.txt,\d+,,404,request,\d+-[0-9a-f]{8},\d+,\d+$/.test(line)), 'no torn or interleaved line');
    const store = new FileProfileStore({ dir, maxRecords: 10_000 });
    const found = await store.find({ limit: 500 });
    assert.equal(new Set(found.map((s) => s.token)).size, 400);
    for (const { token } of found) assert.equal((await store.read(token))?.token, token);
  });

  it('stays within its bounds when two processes purge at the same time, listing only readable records', async () => {
    const dir = temporaryDir();
    const writers = [startWriter(dir, 'c', 500, 100, 10), startWriter(dir, 'd', 500, 100, 10)];
    assert.deepEqual(await Promise.all(writers.map((w) => w.exited)), [0, 0]);
    const store = new FileProfileStore({ dir, maxRecords: 100 });
    const found = await store.find({ limit: 500 });
    assert.equal(found.length, 100);
    for (const { token } of found) assert.equal((await store.read(token))?.token, token, `listed ${token} is readable`);
    // One ring per writer, each come round: maxRecords and one write batch (256) of files.
    const rings = await ringFiles(dir);
    assert.equal(rings.size, 2);
    for (const [ring, files] of rings) assert.equal(files.length, 100 + 256, `${files.length} record files in ${ring}`);
    // The last record of whichever writer finished last is the newest of all, and listed first or nearly.
    assert.ok(found.slice(0, 2).some((s) => s.token === 'c001f3' || s.token === 'd001f3'), found.slice(0, 3).map((s) => s.token).join(' '));
  });

  it('is readable after a writer is killed in the middle of its writes, and takes new records', async () => {
    const dir = temporaryDir();
    const writer = startWriter(dir, 'e', 100_000, 10_000, 50);
    await writer.wrote(60);
    writer.kill();
    assert.equal(await writer.exited, 'SIGKILL');
    const store = new FileProfileStore({ dir, maxRecords: 10_000 });
    const found = await store.find({ limit: 10_000 });
    assert.ok(found.length >= 60);
    for (const { token } of found) assert.equal((await store.read(token))?.token, token);
    const resumed = startWriter(dir, 'f', 5, 10_000, 50);
    assert.equal(await resumed.exited, 0);
    assert.deepEqual((await store.find({ limit: 5 })).map((s) => s.token), ['f00004', 'f00003', 'f00002', 'f00001', 'f00000']);
  });

  it('empties the store while another process goes on writing, without failing, and keeps taking records', async () => {
    const dir = temporaryDir();
    // Small rings and segments: the writer keeps creating slot files, rings and segments during the purges.
    const writer = startWriter(dir, 'c', 3_000, 40, 10);
    await writer.wrote(50);
    const store = new FileProfileStore({ dir, maxRecords: 40, segmentRecords: 10 });
    // Two purgers at once, as two `keel profiler:clear` would: each new ring the writer starts may go too.
    const other = new FileProfileStore({ dir, maxRecords: 40, segmentRecords: 10 });
    for (let purge = 0; purge < 20; purge++) await Promise.all([store.purge(), other.purge()]);
    assert.equal(await writer.exited, 0);
    await store.write(createTestProfile('d00001'));
    assert.equal((await store.read('d00001'))?.token, 'd00001');
    await store.close();
    await other.close();
  });
});
