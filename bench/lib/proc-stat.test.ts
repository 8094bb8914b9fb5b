import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { cpuMicrosBetween, parseCoreTicks, parseProcStat, parseVmRss, stealShareBetween } from './proc-stat.js';

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

// The head of a real /proc/stat of a 2-CPU virtual machine.
const PROC_STAT = [
  'cpu  15794 0 10347 39947 409 0 5948 14054 0 0',
  'cpu0 8000 0 5000 20000 200 0 3000 7000 0 0',
  'cpu1 7794 0 5347 19947 209 0 2948 7054 0 0',
  'intr 1234 0 0',
  '',
].join('\n');

describe('parseCoreTicks', () => {
  it('sums the first eight fields of a CPU line and reads steal, the eighth', () => {
    assert.deepEqual(parseCoreTicks(PROC_STAT, 1), { total: 7794 + 5347 + 19947 + 209 + 2948 + 7054, steal: 7054 });
    assert.deepEqual(parseCoreTicks(PROC_STAT, undefined), { total: 15794 + 10347 + 39947 + 409 + 5948 + 14054, steal: 14054 });
  });

  it('does not take cpu1 for cpu10, and fails on a CPU the machine does not have', () => {
    assert.throws(() => parseCoreTicks(PROC_STAT, 10), /no cpu10 line/);
  });

  it('reads steal as 0 on a kernel that does not report it', () => {
    assert.deepEqual(parseCoreTicks('cpu0 10 0 5 85\n', 0), { total: 100, steal: 0 });
  });
});

describe('stealShareBetween', () => {
  it('is the stolen share of the ticks that passed', () => {
    assert.equal(stealShareBetween({ total: 1000, steal: 100 }, { total: 1200, steal: 150 }), 0.25);
    assert.equal(stealShareBetween({ total: 1000, steal: 100 }, { total: 1000, steal: 100 }), 0);
  });
});
