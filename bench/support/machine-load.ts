import { readFileSync } from 'node:fs';

/** Busy and total jiffies of all CPUs (first line of /proc/stat). */
function cpuJiffies(): { busy: number; total: number } {
  const fields = readFileSync('/proc/stat', 'utf8').split('\n')[0].trim().split(/\s+/).slice(1).map(Number);
  const idle = fields[3] + (fields[4] ?? 0);
  const total = fields.reduce((sum, value) => sum + value, 0);
  return { busy: total - idle, total };
}

/**
 * How busy the whole machine was over an interval, in cores: on a shared machine, what the bench's own
 * processes did not use was someone else's load, and it bounds every latency figure.
 */
export class MachineLoadMeter {
  private readonly start = cpuJiffies();

  constructor(private readonly cores: number) {}

  busyCores(): number {
    const end = cpuJiffies();
    const total = end.total - this.start.total;
    return total > 0 ? Math.round(((end.busy - this.start.busy) / total) * this.cores * 100) / 100 : 0;
  }
}
