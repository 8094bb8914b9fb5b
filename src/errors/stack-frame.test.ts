import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { parseStack } from './stack-frame.js';

describe('parseStack, frame lines', () => {
  it('reads a frame line with a function as the regex /^\\s*at (?:async )?(.*?) \\((.*):(\\d+):(\\d+)\\)$/ does', () => {
    const named = /^\s*at (?:async )?(.*?) \((.*):(\d+):(\d+)\)$/;
    const plain = /^\s*at (?:async )?(.*):(\d+):(\d+)$/;
    const piece = fc.constantFrom(' ', '(', ')', ':', '1', 'a', 'async ', ' (', ':1', '\r', 'eval at ');
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 10 }), (pieces) => {
        const line = `    at ${pieces.join('')}`;
        const match = named.exec(line);
        const other = match === null ? plain.exec(line) : null;
        const [fn, location, row, column] = match !== null ? match.slice(1) : other !== null ? ['', ...other.slice(1)] : [];
        const expected = location === undefined || location.startsWith('eval at ') ? [] : [[fn === '<anonymous>' ? '' : fn, location, Number(row), Number(column)]];
        assert.deepEqual(parseStack(line).map((frame) => [frame.function, frame.file, frame.line, frame.column]), expected, JSON.stringify(line));
      }),
      { numRuns: 3000 },
    );
  });

  // The regex above tried every ` (` of a line against every `:` after it: half a second for 16 kB of a
  // message line that reads like a frame (`at x ( ( ( …`), and a message quotes what clients send. A child
  // process does the parsing, so that a hang fails the test instead of holding the suite.
  it('reads a long line that looks like a frame in one pass', () => {
    const script = `
      import { parseStack } from ${JSON.stringify(new URL('./stack-frame.ts', import.meta.url).href)};
      const frames = parseStack('Error: x\\n    at c' + ' ('.repeat(500_000) + '0\\n    at f' + ' ('.repeat(500_000) + ':1:2)\\n    at g (/app/a.ts:3:4)');
      process.stdout.write(JSON.stringify(frames.map((frame) => [frame.function.length, frame.file.length, frame.line])));`;
    const child = spawnSync(process.execPath, ['--import', 'tsx', '--input-type=module', '--eval', script], { encoding: 'utf8', timeout: 20_000 });
    assert.equal(child.signal, null, 'the parsing did not end within 20 s');
    assert.equal(child.stdout, '[[1,999998,1],[1,9,3]]', child.stderr);
  });
});
