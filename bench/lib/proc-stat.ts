import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';

/** CPU time of a process in clock ticks, as the kernel accounts it (all threads, GC and libuv included). */
export interface CpuTicks {
  utime: number;
  stime: number;
}

/**
 * Reads utime and stime from the text of `/proc/<pid>/stat` (proc(5): fields 14 and 15, in clock ticks).
 * The command name, field 2, sits in parentheses and may itself hold spaces and parentheses, so the fields
 * are counted from the last `)`: "1234 (node a) b) S 1 …" → state "S" is field 3.
 */
export function parseProcStat(text: string): CpuTicks {
  const close = text.lastIndexOf(')');
  if (close === -1) throw new Error(`not a /proc/<pid>/stat line: ${text.slice(0, 60)}`);
  const fields = text.slice(close + 2).trim().split(/\s+/);
  // fields[0] is field 3 (state), so field n is fields[n - 3].
  const utime = Number(fields[14 - 3]);
  const stime = Number(fields[15 - 3]);
  if (!Number.isInteger(utime) || !Number.isInteger(stime)) throw new Error(`no utime/stime in /proc/<pid>/stat: ${text.slice(0, 60)}`);
  return { utime, stime };
}

export function readCpuTicks(pid: number): CpuTicks {
  return parseProcStat(readFileSync(`/proc/${pid}/stat`, 'utf8'));
}

/** Resident set size in bytes, from the `VmRSS:` line of `/proc/<pid>/status` (given in kB). */
export function parseVmRss(statusText: string): number {
  const match = /^VmRSS:\s+(\d+)\s+kB$/m.exec(statusText);
  if (match === null) throw new Error('no VmRSS line in /proc/<pid>/status');
  return Number(match[1]) * 1024;
}

export function readRss(pid: number): number {
  return parseVmRss(readFileSync(`/proc/${pid}/status`, 'utf8'));
}

/** Ticks of one CPU (or of all, as `/proc/stat`'s `cpu` line sums them), and how many of them the hypervisor took. */
export interface CoreTicks {
  total: number;
  /** Time the host ran something else while this virtual CPU had work: it slows the run without being counted in it. */
  steal: number;
}

/**
 * Reads the `cpu<core>` line of `/proc/stat` (the `cpu` line when `core` is undefined): proc(5) lists
 * user, nice, system, idle, iowait, irq, softirq, steal, then guest and guest_nice, which user and nice
 * already include. Kernels before 2.6.11 have no steal field: it reads as 0.
 */
export function parseCoreTicks(procStat: string, core: number | undefined): CoreTicks {
  const name = core === undefined ? 'cpu' : `cpu${core}`;
  const line = procStat.split('\n').find((candidate) => candidate.startsWith(`${name} `));
  if (line === undefined) throw new Error(`no ${name} line in /proc/stat`);
  const fields = line.trim().split(/\s+/).slice(1, 9).map(Number);
  if (fields.length < 4 || fields.some((field) => !Number.isInteger(field))) throw new Error(`not a /proc/stat cpu line: ${line.slice(0, 60)}`);
  return { total: fields.reduce((sum, field) => sum + field, 0), steal: fields[7] ?? 0 };
}

export function readCoreTicks(core: number | undefined): CoreTicks {
  return parseCoreTicks(readFileSync('/proc/stat', 'utf8'), core);
}

/** Share of the CPU's time between two readings that the hypervisor took (0 when no time passed). */
export function stealShareBetween(before: CoreTicks, after: CoreTicks): number {
  const total = after.total - before.total;
  return total > 0 ? (after.steal - before.steal) / total : 0;
}

let clockTicks: number | undefined;

/** Clock ticks per second (`getconf CLK_TCK`), 100 on nearly every Linux when getconf is missing. */
export function clockTicksPerSecond(): number {
  if (clockTicks === undefined) {
    try {
      clockTicks = Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim()) || 100;
    } catch {
      clockTicks = 100;
    }
  }
  return clockTicks;
}

/** Microseconds of CPU time between two readings. */
export function cpuMicrosBetween(before: CpuTicks, after: CpuTicks, ticksPerSecond = clockTicksPerSecond()): number {
  const ticks = after.utime + after.stime - (before.utime + before.stime);
  return (ticks * 1e6) / ticksPerSecond;
}
