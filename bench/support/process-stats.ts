import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';

/** Clock ticks per second of /proc/<pid>/stat times (`getconf CLK_TCK`, 100 on Linux almost everywhere). */
const CLOCK_TICKS_PER_SECOND = readClockTicks();

function readClockTicks(): number {
  try {
    const ticks = Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim());
    return Number.isFinite(ticks) && ticks > 0 ? ticks : 100;
  } catch {
    return 100;
  }
}

/**
 * User + system CPU time of a process in microseconds, from /proc/<pid>/stat (fields 14 and 15). Read
 * from outside, so the measured process runs no extra code; resolution is one clock tick (10 ms), which
 * is why the CPU scenarios run for seconds of CPU.
 */
export function processCpuUs(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  // The command name (field 2) may contain spaces: count fields after its closing parenthesis.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  const utime = Number(fields[11]);
  const stime = Number(fields[12]);
  return ((utime + stime) * 1_000_000) / CLOCK_TICKS_PER_SECOND;
}

/** Resident set size in MiB (VmRSS of /proc/<pid>/status). */
export function processRssMb(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const match = /^VmRSS:\s+(\d+)\s+kB/m.exec(status);
  if (!match) throw new Error(`no VmRSS for pid ${pid}`);
  return Number(match[1]) / 1024;
}

/**
 * write-family syscalls (write, writev, pwrite, …) the process has made, from /proc/<pid>/io `syscw`; read
 * from outside like the CPU, so events ÷ syscalls over a burst shows how the relay batches its socket writes.
 */
export function processWriteSyscalls(pid: number): number {
  const io = readFileSync(`/proc/${pid}/io`, 'utf8');
  const match = /^syscw:\s+(\d+)/m.exec(io);
  if (!match) throw new Error(`no syscw for pid ${pid}`);
  return Number(match[1]);
}

/** CPU used by several processes over one measured interval. */
export class CpuMeter {
  private readonly start = new Map<string, number>();

  constructor(private readonly pids: Readonly<Record<string, number>>) {
    for (const [name, pid] of Object.entries(pids)) this.start.set(name, processCpuUs(pid));
  }

  /** Microseconds of CPU each process used since the meter was created. */
  read(): Record<string, number> {
    const used: Record<string, number> = {};
    for (const [name, pid] of Object.entries(this.pids))
      used[name] = processCpuUs(pid) - this.start.get(name)!;
    return used;
  }
}
