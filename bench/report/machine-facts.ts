import { cpus, loadavg, release, totalmem } from 'node:os';

export interface MachineFacts {
  readonly cpuModel: string;
  readonly cores: number;
  readonly memoryMb: number;
  readonly node: string;
  readonly kernel: string;
  /** 1, 5, 15-minute load averages: other work on a shared machine shows here. */
  readonly loadAverage: number[];
}

export function readMachineFacts(): MachineFacts {
  const processors = cpus();
  return {
    cpuModel: processors[0]?.model.trim() ?? 'unknown',
    cores: processors.length,
    memoryMb: Math.round(totalmem() / 2 ** 20),
    node: process.version,
    kernel: release(),
    loadAverage: loadavg().map((value) => Math.round(value * 100) / 100),
  };
}
