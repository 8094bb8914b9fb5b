import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { cpuMicrosBetween, parseProcStat, parseVmRss } from './proc-stat.js';

// A real line of /proc/<pid>/stat (node), fields 14 and 15 being 1234 and 56.
const LINE = '4242 (node) S 4200 4242 4200 34816 4242 4194560 9027 0 0 0 1234 56 0 0 20 0 11 0 1714 1228054528 21478 18446744073709551615 1 1 0 0 0 0 0 4096 134234626 0 0 0 17 1 0 0 0 0 0\n';

describe('parseProcStat', () => {
  it('reads utime and stime, fields 14 and 15', () => {
    assert.deepEqual(parseProcStat(LINE), { utime: 1234, stime: 56 });
  });

  it('counts fields from the last parenthesis when the command name holds spaces and parentheses', () => {
    const tricky = LINE.replace('(node)', '(node (worker) 2)');
    assert.deepEqual(parseProcStat(tricky), { utime: 1234, stime: 56 });
  });

  it('rejects text that is not a stat line', () => {
    assert.throws(() => parseProcStat('no parenthesis here'), /not a \/proc/);
    assert.throws(() => parseProcStat('1 (x) S 1 2'), /no utime\/stime/);
  });
});

describe('parseVmRss', () => {
  it('turns the VmRSS line into bytes', () => {
    const status = 'Name:\tnode\nVmPeak:\t 1200000 kB\nVmRSS:\t   85904 kB\nRssAnon:\t 60000 kB\n';
    assert.equal(parseVmRss(status), 85_904 * 1024);
  });

  it('fails when the line is missing', () => {
    assert.throws(() => parseVmRss('Name:\tnode\n'), /no VmRSS/);
  });
});

describe('cpuMicrosBetween', () => {
  it('adds user and system ticks and converts them with the clock rate', () => {
    assert.equal(cpuMicrosBetween({ utime: 100, stime: 20 }, { utime: 150, stime: 30 }, 100), 600_000);
    assert.equal(cpuMicrosBetween({ utime: 0, stime: 0 }, { utime: 1, stime: 0 }, 250), 4_000);
  });
});
