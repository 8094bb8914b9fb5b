import assert from 'node:assert/strict';
import { access, mkdir, mkdtemp, readdir, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, it } from 'node:test';
import { brotliDecompressSync } from 'node:zlib';
import { CompositeProfileStore } from './composite-profile-store.js';
import { FileProfileStore } from './file-profile-store.js';
import { MemoryProfileStore } from './memory-profile-store.js';
import { createTestProfile, describeProfileStoreContract } from './profile-store.contract.js';

async function temporaryDir(): Promise<{ dir: string; tearDown: () => Promise<void> }> {
  const dir = await mkdtemp(join(tmpdir(), 'keel-profiler-'));
  return { dir, tearDown: () => rm(dir, { recursive: true, force: true }) };
}

describeProfileStoreContract('FileProfileStore', async () => {
  const { dir, tearDown } = await temporaryDir();
  return { store: new FileProfileStore({ dir, maxAge: Number.MAX_SAFE_INTEGER, clock: () => 1_800_000_000_000 }), tearDown };
});

describeProfileStoreContract('CompositeProfileStore', async () => {
  const { dir, tearDown } = await temporaryDir();
  const back = new FileProfileStore({ dir, maxAge: Number.MAX_SAFE_INTEGER, clock: () => 1_800_000_000_000 });
  return { store: new CompositeProfileStore(new MemoryProfileStore(), back), tearDown };
});

describe('FileProfileStore', () => {
  let dir: string;
  let tearDown: () => Promise<void>;
  let now: number;
  const clock = () => now;

  beforeEach(async () => {
    ({ dir, tearDown } = await temporaryDir());
    now = 1_800_000_000_000;
  });

  afterEach(() => tearDown());

  it("lays records out like Symfony: compressed files fanned out by the token's last two characters, one index line each", async () => {
    const store = new FileProfileStore({ dir, clock });
    await store.write(createTestProfile('a2546b', { parent: '4ea1d5', time: 1_800_000_000 }));
    await store.write(createTestProfile('4ea1d5', { children: ['a2546b'], time: 1_800_000_000 }));
    const stored = JSON.parse(brotliDecompressSync(await readFile(join(dir, '6b', 'a2546b'))).toString('utf8'));
    assert.equal(stored.parent, '4ea1d5');
    assert.equal(
      await readFile(join(dir, 'index.csv'), 'utf8'),
      'a2546b,203.0.113.7,GET,https://app.example.test/robots.txt,1800000000,4ea1d5,404,request\n' +
        '4ea1d5,203.0.113.7,GET,https://app.example.test/robots.txt,1800000000,,404,request\n',
    );
  });

  it('serves records written before a restart', async () => {
    await new FileProfileStore({ dir, clock }).write(createTestProfile('4ea1d5', { time: 1_800_000_000 }));
    const restarted = new FileProfileStore({ dir, clock });
    assert.equal((await restarted.read('4ea1d5'))?.url, 'https://app.example.test/robots.txt');
    assert.deepEqual((await restarted.find({ limit: 10 })).map((s) => s.token), ['4ea1d5']);
  });

  it('keeps only the newest records beyond maxRecords, moving the files of the others out of the store', async () => {
    const store = new FileProfileStore({ dir, clock, maxRecords: 3 });
    for (const token of ['000001', '000002', '000003', '000004', '000005']) await store.write(createTestProfile(token, { time: 1_800_000_000 }));
    assert.deepEqual((await store.find({ limit: 10 })).map((s) => s.token), ['000005', '000004', '000003']);
    assert.equal(await store.read('000001'), undefined);
    await assert.rejects(access(join(dir, '01', '000001')));
  });

  it('reuses the files of purged records for new ones instead of creating files', async () => {
    const store = new FileProfileStore({ dir, clock, maxRecords: 4, segmentRecords: 2 });
    const tokens = Array.from({ length: 40 }, (_, i) => (0xa00000 + i).toString(16));
    const inodes = new Set<number>();
    for (const token of tokens) {
      await store.write(createTestProfile(token, { time: 1_800_000_000, url: `https://app.example.test/${token}` }));
      inodes.add((await stat(join(dir, token.slice(-2), token))).ino);
    }
    // The first six records (four kept, a segment more) are new files; from then on, purged files come back.
    assert.ok(inodes.size < 20, `${inodes.size} distinct files for 40 records`);
    const found = (await store.find({ limit: 10 })).map((s) => s.token);
    assert.deepEqual(found.slice(0, 4), tokens.slice(-4).reverse());
    for (const token of found) assert.equal((await store.read(token))?.url, `https://app.example.test/${token}`);
    // Spares never outnumber their bound, and nothing in them looks like a record.
    const spares = await readdir(join(dir, 'spare'));
    assert.ok(spares.length <= 256 + 4, `${spares.length} spares`);
    assert.ok(spares.every((name) => !/^[0-9a-f]{6}$/.test(name)));
  });

  it("answers undefined for a recycled file a crash left holding another record's content", async () => {
    const store = new FileProfileStore({ dir, clock });
    await store.write(createTestProfile('000001', { time: 1_800_000_000 }));
    // What a crash between taking a spare and overwriting it leaves: the old record under a new token's name.
    await mkdir(join(dir, '02'), { recursive: true });
    await rename(join(dir, '01', '000001'), join(dir, '02', '000002'));
    assert.equal(await new FileProfileStore({ dir, clock }).read('000002'), undefined);
  });

  it('takes the spares another process retired, after a restart too', async () => {
    const first = new FileProfileStore({ dir, clock, maxRecords: 2, segmentRecords: 1 });
    for (const token of ['000001', '000002', '000003', '000004', '000005']) await first.write(createTestProfile(token));
    const spares = await readdir(join(dir, 'spare'));
    assert.ok(spares.length > 0);
    const spareInodes = await Promise.all(spares.map(async (name) => (await stat(join(dir, 'spare', name))).ino));
    const second = new FileProfileStore({ dir, clock, maxRecords: 2, segmentRecords: 1 });
    // Its pool starts empty: the first write creates a file and has the pool look in the folder.
    await second.write(createTestProfile('0000a1'));
    await second.close();
    await second.write(createTestProfile('0000a2'));
    assert.ok(spareInodes.includes((await stat(join(dir, 'a2', '0000a2'))).ino));
    assert.equal((await second.read('0000a2'))?.token, '0000a2');
  });

  it('deletes records older than maxAge once a newer one is written', async () => {
    const store = new FileProfileStore({ dir, clock, maxAge: 60 });
    await store.write(createTestProfile('000001', { time: 1_800_000_000 }));
    now += 61_000;
    await store.write(createTestProfile('000002', { time: 1_800_000_061 }));
    assert.deepEqual((await store.find({ limit: 10 })).map((s) => s.token), ['000002']);
    assert.equal(await store.read('000001'), undefined);
  });

  it('deletes the files of a whole index segment once its newest record is older than maxAge', async () => {
    const store = new FileProfileStore({ dir, clock, maxAge: 60, segmentRecords: 1 });
    await store.write(createTestProfile('000001', { time: 1_800_000_000 }));
    await access(join(dir, '01', '000001'));
    now += 61_000;
    await store.write(createTestProfile('000002', { time: 1_800_000_061 }));
    await assert.rejects(access(join(dir, '01', '000001')));
    assert.equal((await store.read('000002'))?.token, '000002');
  });

  it('keeps index lines under PIPE_BUF by cutting very long URLs, the record keeping the whole URL', async () => {
    const store = new FileProfileStore({ dir, clock });
    const url = `https://app.example.test/?q=${'é'.repeat(5000)}`;
    await store.write(createTestProfile('000001', { url }));
    const line = await readFile(join(dir, 'index.csv'));
    assert.ok(line.length <= 4000, `${line.length} bytes`);
    assert.equal((await store.read('000001'))?.url, url);
    assert.ok(url.startsWith((await store.find({ limit: 1 }))[0]!.url));
  });

  it('sees a line another process lands in a segment just sealed (it opened it as the current one)', async () => {
    const store = new FileProfileStore({ dir, clock, segmentRecords: 1 });
    await store.write(createTestProfile('000001'));
    await store.write(createTestProfile('000002'));
    assert.deepEqual((await store.find({ limit: 10 })).map((s) => s.token), ['000002', '000001']);
    const [sealed] = (await readdir(dir)).filter((name) => /^index-.+\.csv$/.test(name)).sort();
    await writeFile(join(dir, sealed!), `${await readFile(join(dir, sealed!), 'utf8')}0000ff,203.0.113.7,GET,https://app.example.test/late,1800000000,,404,request\n`);
    assert.ok((await store.find({ limit: 10 })).some((s) => s.token === '0000ff'));
  });

  it('skips malformed index lines', async () => {
    const store = new FileProfileStore({ dir, clock });
    await store.write(createTestProfile('000001', { time: 1_800_000_000 }));
    const index = join(dir, 'index.csv');
    await writeFile(index, `${await readFile(index, 'utf8')}garbage\n../../etc,1,GET,x,1,,200,request\n"unterminated,1\n000002,ip,GET\n`);
    assert.deepEqual((await store.find({ limit: 10 })).map((s) => s.token), ['000001']);
  });

  it('ignores a half-written temporary file left by a crash', async () => {
    await mkdir(join(dir, '01'), { recursive: true });
    await writeFile(join(dir, '01', '.000001.deadbeef.tmp'), Buffer.from([0x1f, 0x8b, 0x08]));
    const store = new FileProfileStore({ dir, clock });
    assert.equal(await store.read('000001'), undefined);
    assert.deepEqual(await store.find({ limit: 10 }), []);
  });

  it('answers undefined for a corrupt record file', async () => {
    await mkdir(join(dir, '01'), { recursive: true });
    await writeFile(join(dir, '01', '000001'), 'not brotli');
    assert.equal(await new FileProfileStore({ dir, clock }).read('000001'), undefined);
  });

  it('never turns a malformed token into a path', async () => {
    const store = new FileProfileStore({ dir, clock });
    await writeFile(join(dir, 'secret'), 'x');
    assert.equal(await store.read('../secret'), undefined);
    assert.equal(await store.read('..'), undefined);
    await assert.rejects(store.write(createTestProfile('../../x')), TypeError);
  });
});
