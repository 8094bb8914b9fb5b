import assert from 'node:assert/strict';
import { access, mkdir, mkdtemp, readdir, readFile, rm, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, it } from 'node:test';
import { brotliDecompressSync } from 'node:zlib';
import { CompositeProfileStore } from './composite-profile-store.js';
import { FileProfileStore } from './file-profile-store.js';
import { MemoryProfileStore } from './memory-profile-store.js';
import { parseIndexLine, type IndexEntry } from './profile-index.js';
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

/** The index lines of the store, parsed, in file order (sealed segments first). */
async function indexEntries(dir: string): Promise<IndexEntry[]> {
  const names = (await readdir(dir)).filter((name) => name.startsWith('index')).sort((a, b) => (a === 'index.csv' ? 1 : b === 'index.csv' ? -1 : a.localeCompare(b)));
  const entries: IndexEntry[] = [];
  for (const name of names) for (const line of (await readFile(join(dir, name), 'utf8')).split('\n')) if (line !== '') entries.push(parseIndexLine(line)!);
  return entries;
}

function slotPath(dir: string, entry: IndexEntry): string {
  return join(dir, 'rings', entry.location!.ring, String(entry.location!.slot));
}

async function ringFolders(dir: string): Promise<string[]> {
  return readdir(join(dir, 'rings')).catch(() => []);
}

/** A store writes record 00000a, then its writer stops: its ring's folder was last touched 11 minutes ago. */
async function ringOfAProcessGone(dir: string, maxRecords: number): Promise<string> {
  await new FileProfileStore({ dir, clock: () => 1_800_000_000_000, maxRecords, segmentRecords: 1 }).write(createTestProfile('00000a'));
  const [ring] = await ringFolders(dir);
  // Longer ago than RING_IDLE_MS.
  const longAgo = new Date(Date.now() - 11 * 60_000);
  await utimes(join(dir, 'rings', ring!), longAgo, longAgo);
  return ring!;
}

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

  it("writes a compressed file per record in the process's ring, and an index line with Symfony's columns naming its slot", async () => {
    const store = new FileProfileStore({ dir, clock });
    await store.write(createTestProfile('a2546b', { parent: '4ea1d5', time: 1_800_000_000 }));
    await store.write(createTestProfile('4ea1d5', { children: ['a2546b'], time: 1_800_000_000 }));
    const lines = (await readFile(join(dir, 'index.csv'), 'utf8')).split('\n');
    assert.match(lines[0]!, /^a2546b,203\.0\.113\.7,GET,https:\/\/app\.example\.test\/robots\.txt,1800000000,4ea1d5,404,request,\d+-[0-9a-f]{8},0,\d+$/);
    assert.match(lines[1]!, /^4ea1d5,203\.0\.113\.7,GET,https:\/\/app\.example\.test\/robots\.txt,1800000000,,404,request,\d+-[0-9a-f]{8},1,\d+$/);
    const [child] = await indexEntries(dir);
    assert.equal(child!.location!.ring.split('-')[0], String(process.pid));
    const stored = JSON.parse(brotliDecompressSync(await readFile(slotPath(dir, child!))).toString('utf8'));
    assert.equal(stored.token, 'a2546b');
    assert.equal(stored.parent, '4ea1d5');
  });

  it('stores records of any size and alphabet whole, one after the other', async () => {
    const store = new FileProfileStore({ dir, clock });
    // Small, then 24 000 UTF-16 units of two- to four-byte characters, then 400 kB, then small again.
    const bodies = ['short', 'é€😀'.repeat(6_000), 'x'.repeat(400_000), 'tail'];
    const tokens = ['00000b', '00000c', '00000d', '00000e'];
    for (const [i, body] of bodies.entries()) {
      await store.write(createTestProfile(tokens[i]!, { collectors: { request: { route: null, headers: { host: 'app.example.test' }, body } } }));
    }
    for (const [i, body] of bodies.entries()) {
      assert.equal(((await store.read(tokens[i]!))?.collectors.request as { body: string }).body, body);
    }
  });

  it('serves records written before a restart', async () => {
    await new FileProfileStore({ dir, clock }).write(createTestProfile('4ea1d5', { time: 1_800_000_000 }));
    const restarted = new FileProfileStore({ dir, clock });
    assert.equal((await restarted.read('4ea1d5'))?.url, 'https://app.example.test/robots.txt');
    assert.deepEqual((await restarted.find({ limit: 10 })).map((s) => s.token), ['4ea1d5']);
  });

  it('keeps only the newest records beyond maxRecords, and reads no other, whatever the segments still hold', async () => {
    const store = new FileProfileStore({ dir, clock, maxRecords: 3, segmentRecords: 100 });
    for (const token of ['000001', '000002', '000003', '000004', '000005']) await store.write(createTestProfile(token, { time: 1_800_000_000 }));
    assert.deepEqual((await store.find({ limit: 10 })).map((s) => s.token), ['000005', '000004', '000003']);
    assert.deepEqual(await Promise.all(['000001', '000002', '000003'].map(async (token) => (await store.read(token))?.token)), [undefined, undefined, '000003']);
  });

  it('keeps the newest records when the clock steps back: a segment sealed then is not taken for the oldest', async () => {
    const store = new FileProfileStore({ dir, clock, maxRecords: 20, maxAge: 86_400 });
    const tokens = Array.from({ length: 70 }, (_, i) => (0xb00000 + i).toString(16));
    for (const [i, token] of tokens.entries()) {
      now = 1_800_000_000_000 + (i < 30 ? i : i - 3_600) * 1000;
      await store.write(createTestProfile(token, { time: Math.floor(now / 1000) }));
    }
    assert.deepEqual((await store.find({ limit: 50 })).map((s) => s.token), tokens.slice(-20).reverse());
    for (const token of tokens.slice(-20)) assert.equal((await store.read(token))?.token, token);
  });

  it('overwrites the files of its ring in place once it comes round: maxRecords and a batch of files, every listed record readable', async () => {
    const store = new FileProfileStore({ dir, clock, maxRecords: 4, segmentRecords: 2 });
    const tokens = Array.from({ length: 300 }, (_, i) => (0xa00000 + i).toString(16));
    for (const token of tokens) await store.write(createTestProfile(token, { time: 1_800_000_000, url: `https://app.example.test/${token}` }));
    const [ring, ...others] = await ringFolders(dir);
    assert.deepEqual(others, []);
    const files = await readdir(join(dir, 'rings', ring!));
    assert.equal(files.length, 4 + 256);
    // The slot of the first record now holds the 261st; the first is reported missing, not as the other.
    assert.equal(await store.read(tokens[0]!), undefined);
    const found = (await store.find({ limit: 10 })).map((s) => s.token);
    assert.deepEqual(found, tokens.slice(-4).reverse());
    for (const token of found) assert.equal((await store.read(token))?.url, `https://app.example.test/${token}`);
  });

  it('compresses the records queued in one turn together, in one slot, each line giving its place in the group', async () => {
    const store = new FileProfileStore({ dir, clock });
    const tokens = Array.from({ length: 40 }, (_, i) => (0xb00000 + i).toString(16));
    // One turn's writes: a busy server's records of several requests.
    await Promise.all(tokens.map((token) => store.write(createTestProfile(token, { time: 1_800_000_000, url: `https://app.example.test/${token}` }))));
    const entries = await indexEntries(dir);
    // 40 records, at most 32 a group: two slots, every line placing its record in one of them.
    assert.deepEqual([...new Set(entries.map((entry) => entry.location!.slot))], [0, 1]);
    assert.ok(entries.every((entry) => entry.location!.part !== undefined));
    const restarted = new FileProfileStore({ dir, clock });
    for (const token of tokens) assert.equal((await restarted.read(token))?.url, `https://app.example.test/${token}`);
    // The group's file is overwritten by another group (the ring came round): its lines name records that are gone.
    await writeFile(slotPath(dir, entries[0]!), await readFile(slotPath(dir, entries[39]!)));
    assert.equal(await restarted.read(tokens[0]!), undefined);
  });

  it("answers undefined for a slot a crash left holding another record's content", async () => {
    const store = new FileProfileStore({ dir, clock });
    await store.write(createTestProfile('000001', { time: 1_800_000_000 }));
    await store.write(createTestProfile('000002', { time: 1_800_000_000 }));
    const [first, second] = await indexEntries(dir);
    // What a crash in the middle of overwriting a slot can leave: another record's bytes under its line.
    await writeFile(slotPath(dir, second!), await readFile(slotPath(dir, first!)));
    assert.equal(await new FileProfileStore({ dir, clock }).read('000002'), undefined);
    assert.equal((await new FileProfileStore({ dir, clock }).read('000001'))?.token, '000001');
  });

  it('answers undefined for a slot holding fewer bytes than its line says (a torn write) or bytes that are not a record', async () => {
    const store = new FileProfileStore({ dir, clock });
    await store.write(createTestProfile('000001', { time: 1_800_000_000 }));
    await store.write(createTestProfile('000002', { time: 1_800_000_000 }));
    const [first, second] = await indexEntries(dir);
    await writeFile(slotPath(dir, first!), (await readFile(slotPath(dir, first!))).subarray(0, 10));
    await writeFile(slotPath(dir, second!), 'not brotli, but long enough to fill the length the line gives for it '.repeat(20));
    assert.equal(await store.read('000001'), undefined);
    assert.equal(await store.read('000002'), undefined);
  });

  it('answers undefined for a line giving a length far beyond its file (a hand edit)', async () => {
    const store = new FileProfileStore({ dir, clock });
    await store.write(createTestProfile('000001', { time: 1_800_000_000 }));
    const index = join(dir, 'index.csv');
    await writeFile(index, (await readFile(index, 'utf8')).replace(/,\d+\n$/, ',100000000\n'));
    assert.equal(await store.read('000001'), undefined);
  });

  it('deletes the ring of a process gone once no index line names it, and keeps a ring still being written', async () => {
    const goneRing = await ringOfAProcessGone(dir, 2);
    // A writer that has just started its ring and appended no line yet, as another process would.
    await mkdir(join(dir, 'rings', '999999-0badcafe'), { recursive: true });
    const next = new FileProfileStore({ dir, clock, maxRecords: 2, segmentRecords: 1 });
    for (const token of ['00000b', '00000c', '00000d', '00000e']) {
      now += 61_000;
      await next.write(createTestProfile(token));
    }
    await next.close();
    const rings = await ringFolders(dir);
    assert.ok(!rings.includes(goneRing), rings.join(' '));
    assert.ok(rings.includes('999999-0badcafe'), rings.join(' '));
    assert.equal(rings.length, 2);
    assert.deepEqual((await next.find({ limit: 10 })).map((s) => s.token), ['00000e', '00000d']);
  });

  it('keeps the ring of a process gone while an index line still names it, and serves its records', async () => {
    const goneRing = await ringOfAProcessGone(dir, 10);
    const next = new FileProfileStore({ dir, clock, maxRecords: 10, segmentRecords: 1 });
    await next.write(createTestProfile('00000b'));
    await next.write(createTestProfile('00000c'));
    await next.close();
    assert.ok((await ringFolders(dir)).includes(goneRing));
    assert.equal((await next.read('00000a'))?.token, '00000a');
  });

  it('deletes records older than maxAge once a newer one is written', async () => {
    const store = new FileProfileStore({ dir, clock, maxAge: 60 });
    await store.write(createTestProfile('000001', { time: 1_800_000_000 }));
    now += 61_000;
    await store.write(createTestProfile('000002', { time: 1_800_000_061 }));
    assert.deepEqual((await store.find({ limit: 10 })).map((s) => s.token), ['000002']);
    assert.equal(await store.read('000001'), undefined);
  });

  it('deletes a whole index segment once its newest record is older than maxAge', async () => {
    const store = new FileProfileStore({ dir, clock, maxAge: 60, segmentRecords: 1 });
    await store.write(createTestProfile('000001', { time: 1_800_000_000 }));
    now += 61_000;
    await store.write(createTestProfile('000002', { time: 1_800_000_061 }));
    assert.deepEqual((await indexEntries(dir)).map((entry) => entry.token), ['000002']);
    assert.equal(await new FileProfileStore({ dir, clock: () => 0 }).read('000001'), undefined);
    assert.equal((await store.read('000002'))?.token, '000002');
  });

  it('keeps index lines under PIPE_BUF by cutting a very long URL to the longest beginning that fits, and lists it whole', async () => {
    const store = new FileProfileStore({ dir, clock });
    // One-byte, two-byte and four-byte characters (a surrogate pair is never split).
    const urls = ['x', 'é', '😀'].map((c) => `https://app.example.test/?q=${c.repeat(5000)}`);
    for (const [i, url] of urls.entries()) await store.write(createTestProfile(`00000${i}`, { url }));
    const lines = (await readFile(join(dir, 'index.csv'), 'utf8')).split('\n').slice(0, -1);
    for (const line of lines) {
      const bytes = Buffer.byteLength(`${line}\n`);
      assert.ok(bytes <= 4000 && bytes > 4000 - 4, `${bytes} bytes`);
    }
    for (const [i, entry] of (await indexEntries(dir)).entries()) {
      assert.equal(entry.urlCut, true);
      assert.ok(urls[i]!.startsWith(entry.url));
    }
    assert.deepEqual((await store.find({ limit: 3 })).map((summary) => summary.url), urls.toReversed());
    assert.equal((await store.read('000001'))?.url, urls[1]);
  });

  it('sees a line another process lands in a segment just sealed (it opened it as the current one)', async () => {
    const store = new FileProfileStore({ dir, clock, segmentRecords: 1 });
    await store.write(createTestProfile('000001'));
    await store.write(createTestProfile('000002'));
    assert.deepEqual((await store.find({ limit: 10 })).map((s) => s.token), ['000002', '000001']);
    const [sealed] = (await readdir(dir)).filter((name) => /^index-.+\.csv$/.test(name)).sort();
    await writeFile(join(dir, sealed!), `${await readFile(join(dir, sealed!), 'utf8')}0000ff,203.0.113.7,GET,https://app.example.test/late,1800000000,,404,request,1-0000abcd,0,10\n`);
    assert.ok((await store.find({ limit: 10 })).some((s) => s.token === '0000ff'));
  });

  it('skips malformed index lines, and lines naming no ring or a ring that is not a ring name', async () => {
    const store = new FileProfileStore({ dir, clock });
    await store.write(createTestProfile('000001', { time: 1_800_000_000 }));
    const index = join(dir, 'index.csv');
    await writeFile(
      index,
      `${await readFile(index, 'utf8')}garbage\n../../etc,1,GET,x,1,,200,request\n"unterminated,1\n000002,ip,GET\n` +
        '000003,ip,GET,x,1800000000,,200,request\n000004,ip,GET,x,1800000000,,200,request,../..,0,10\n000005,ip,GET,x,1800000000,,200,request,1-0000abcd,,10\n',
    );
    assert.deepEqual((await store.find({ limit: 10 })).map((s) => s.token), ['000001']);
    assert.equal(await store.read('000004'), undefined);
  });

  it("deletes an earlier version's token folders and spare files, whose lines it does not list", async () => {
    await mkdir(join(dir, '01'), { recursive: true });
    await writeFile(join(dir, '01', '000001'), 'x');
    await mkdir(join(dir, 'spare'), { recursive: true });
    await writeFile(join(dir, 'spare', '1-deadbeef-1'), 'x');
    await writeFile(join(dir, 'index.csv'), '000001,ip,GET,x,1800000000,,200,request\n');
    const store = new FileProfileStore({ dir, clock });
    assert.deepEqual(await store.find({ limit: 10 }), []);
    await store.write(createTestProfile('000002'));
    await store.close();
    await assert.rejects(access(join(dir, '01')));
    await assert.rejects(access(join(dir, 'spare')));
    assert.deepEqual((await store.find({ limit: 10 })).map((s) => s.token), ['000002']);
  });

  it('never turns a malformed token into a path', async () => {
    const store = new FileProfileStore({ dir, clock });
    await writeFile(join(dir, 'secret'), 'x');
    assert.equal(await store.read('../secret'), undefined);
    assert.equal(await store.read('..'), undefined);
    await assert.rejects(store.write(createTestProfile('../../x')), TypeError);
  });
});
