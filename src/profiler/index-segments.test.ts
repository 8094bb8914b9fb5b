import assert from 'node:assert/strict';
import fs, { writeFileSync } from 'node:fs';
import { syncBuiltinESMExports } from 'node:module';
import { join } from 'node:path';
import { describe, it, mock } from 'node:test';
import { useTemporaryDir } from '../../test/helpers/temporary-dir.js';
import { appendIndexLines, currentSegmentHead, readSegments, sealCurrentSegment } from './index-segments.js';
import type { IndexEntry } from './profile-index.js';

describe('currentSegmentHead', () => {
  const temporaryDir = useTemporaryDir('keel-segments-');

  it('counts the lines of index.csv and parses only the first', () => {
    const line = (token: string, time: number) => `${token},203.0.113.7,GET,https://app.example.test/,${time},,404,request,1-0000abcd,0,10\n`;
    writeFileSync(join(temporaryDir(), 'index.csv'), line('00000a', 1_800_000_000) + 'garbage\n' + line('00000b', 1_800_000_100));
    const head = currentSegmentHead(temporaryDir());
    assert.equal(head.lines, 3);
    assert.equal(head.first?.token, '00000a');
    assert.equal(head.first?.time, 1_800_000_000);
  });

  it('reports an empty segment for a missing file, and no first entry for a malformed or torn first line', () => {
    assert.deepEqual(currentSegmentHead(temporaryDir()), { lines: 0, first: undefined });
    writeFileSync(join(temporaryDir(), 'index.csv'), 'garbage\n00000a,203.0.113.7,GET');
    assert.deepEqual(currentSegmentHead(temporaryDir()), { lines: 1, first: undefined });
  });
});

describe('appendIndexLines', () => {
  const temporaryDir = useTemporaryDir('keel-segments-');

  it('writes a batch larger than one append as whole lines, in order, with multi-byte URLs', () => {
    const entries: IndexEntry[] = Array.from({ length: 120 }, (_, i) => ({
      token: (0xa00000 + i).toString(16),
      ip: '203.0.113.7',
      method: 'GET',
      url: `https://app.example.test/${'é'.repeat(i)}`,
      time: 1_800_000_000 + i,
      parent: undefined,
      statusCode: 404,
      type: 'request',
      location: { ring: '1-0000abcd', slot: i, length: 10 },
    }));
    appendIndexLines(temporaryDir(), entries);
    const [current] = readSegments(temporaryDir());
    assert.deepEqual(current?.entries, entries);
  });

  it('starts on a line of its own after a write cut short, so that the next record is not lost with it', () => {
    const entry = (token: string): IndexEntry => ({
      token, ip: '203.0.113.7', method: 'GET', url: 'https://app.example.test/', time: 1_800_000_000, parent: undefined,
      statusCode: 404, type: 'request', location: { ring: '1-0000abcd', slot: 0, length: 10 },
    });
    // What a full disk leaves: the first half of a line, no line break.
    writeFileSync(join(temporaryDir(), 'index.csv'), '00000a,203.0.113.7,GET,https://app.exa');
    appendIndexLines(temporaryDir(), [entry('00000b')]);
    appendIndexLines(temporaryDir(), [entry('00000c')]);
    assert.deepEqual(readSegments(temporaryDir())[0]?.entries.map((found) => found.token), ['00000b', '00000c']);
    assert.equal(currentSegmentHead(temporaryDir()).lines, 3);
  });
});

describe('readSegments', () => {
  const temporaryDir = useTemporaryDir('keel-segments-');
  const line = (token: string) => `${token},203.0.113.7,GET,https://app.example.test/,1800000000,,404,request,1-0000abcd,0,10\n`;
  const tokens = (dir: string) => readSegments(dir, new Map()).flatMap((segment) => segment.entries.map((entry) => entry.token));

  // Another process seals the current segment while this one reads: just before it lists the folder, or
  // just after.
  function sealedWhileListing<T>(dir: string, when: 'before' | 'after', read: () => T): T {
    const realReaddir = fs.readdirSync;
    const listing = mock.method(fs, 'readdirSync', (...args: Parameters<typeof fs.readdirSync>) => {
      if (when === 'before') sealCurrentSegment(dir, 1_800_000_000_000);
      const names = realReaddir(...args);
      if (when === 'after') sealCurrentSegment(dir, 1_800_000_000_000);
      return names;
    });
    syncBuiltinESMExports();
    try {
      return read();
    } finally {
      listing.mock.restore();
      syncBuiltinESMExports();
    }
  }

  it('misses no line of a segment sealed by another process while it reads, nor reads one twice', () => {
    const dir = temporaryDir();
    writeFileSync(join(dir, 'index.csv'), line('00000a') + line('00000b'));
    sealCurrentSegment(dir, 1_799_999_999_000);
    writeFileSync(join(dir, 'index.csv'), line('00000c'));
    assert.deepEqual(sealedWhileListing(dir, 'after', () => tokens(dir)), ['00000a', '00000b', '00000c']);
    // Read again, the segment is a sealed one like the other.
    assert.deepEqual(tokens(dir), ['00000a', '00000b', '00000c']);
    writeFileSync(join(dir, 'index.csv'), line('00000d'));
    assert.deepEqual(sealedWhileListing(dir, 'before', () => tokens(dir)), ['00000a', '00000b', '00000c', '00000d']);
  });
});
