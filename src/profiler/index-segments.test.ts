import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { useTemporaryDir } from '../../test/helpers/temporary-dir.js';
import { appendIndexLines, currentSegmentHead, readSegments } from './index-segments.js';
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
});
