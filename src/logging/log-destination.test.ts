import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { openDestination } from './log-destination.js';

function captureStderr(run: () => Promise<void>): Promise<string> {
  const original = process.stderr.write.bind(process.stderr);
  let captured = '';
  process.stderr.write = ((chunk: string | Uint8Array) => {
    captured += String(chunk);
    return true;
  }) as typeof process.stderr.write;
  return run().then(
    () => {
      process.stderr.write = original;
      return captured;
    },
    (error: unknown) => {
      process.stderr.write = original;
      throw error;
    },
  );
}

describe('openDestination', () => {
  it('writes lines to the file, creating its folder', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'keel-log-'));
    try {
      const destination = openDestination(join(dir, 'log', 'dev.log'), { sync: true });
      destination.write('one\n');
      destination.write('two\n');
      await destination.close();
      assert.equal(readFileSync(join(dir, 'log', 'dev.log'), 'utf8'), 'one\ntwo\n');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  for (const sync of [true, false]) {
    it(`survives a full disk, saying so once on stderr (${sync ? 'sync' : 'async'})`, async () => {
      const said = await captureStderr(async () => {
        const destination = openDestination('/dev/full', { sync });
        for (let i = 0; i < 5; i++) destination.write(`line ${i}\n`);
        await destination.flush();
        await destination.close();
      });
      assert.equal(said.split('\n').filter(Boolean).length, 1, said);
      assert.match(said, /cannot write the log \/dev\/full \(ENOSPC/);
    });
  }

  it('writes again once the log can be written, on a line of its own, and says so', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'keel-log-'));
    try {
      // A file where the log folder should be: the log cannot be opened until it goes.
      writeFileSync(join(dir, 'var'), 'in the way');
      const file = join(dir, 'var', 'log', 'dev.log');
      const said = await captureStderr(async () => {
        const destination = openDestination(file, { sync: true, retryMs: 0 });
        destination.write('dropped\n');
        rmSync(join(dir, 'var'));
        mkdirSync(join(dir, 'var', 'log'), { recursive: true });
        // What a full disk leaves: the last line cut.
        writeFileSync(file, 'cut lin');
        destination.write('back\n');
        destination.write('and on\n');
        await destination.close();
      });
      assert.equal(readFileSync(file, 'utf8'), 'cut lin\nback\nand on\n');
      const lines = said.split('\n').filter(Boolean);
      assert.equal(lines.length, 2, said);
      assert.match(lines[0]!, /cannot write the log .*dev\.log/);
      assert.equal(lines[1], `keel: the log ${file} is written again`);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('survives a log path it cannot create', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'keel-log-'));
    try {
      writeFileSync(join(dir, 'var'), 'a file where the log folder should be');
      const said = await captureStderr(async () => {
        const destination = openDestination(join(dir, 'var', 'log', 'dev.log'), { sync: true });
        destination.write('dropped\n');
        await destination.close();
      });
      assert.match(said, /cannot write the log .*dev\.log/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
