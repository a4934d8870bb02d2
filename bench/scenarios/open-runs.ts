import { processCpuUs, processRssMb } from '../support/process-stats';
import { median, round } from '../support/sample-stats';
import { UPSTREAM_STATS_PATH, type UpstreamStats } from '../support/ready-lines';
import type { StreamReport } from '../client/client-protocol';
import type { GatewayProcess } from '../support/bench-processes';
import { planText } from '../upstream/upstream-plan';
import { targetFor, type BenchRig } from './bench-rig';

export interface OpenRunsResult {
  readonly runs: number;
  readonly heartbeatSeconds: number;
  readonly holdSeconds: number;
  readonly idleRssMb: number;
  /** Peak RSS while every run was open. */
  readonly openRssMb: number;
  readonly perRunKb: number;
  /** RSS a few seconds after the clients left and the tasks were cancelled. */
  readonly afterCloseRssMb: number;
  /** Median heartbeat comments a run received over the hold. */
  readonly heartbeatsPerRun: number;
  /** Gateway CPU while idle-heartbeating, as a share of one core. */
  readonly holdCpuCoreShare: number;
  readonly openAtUpstream: number;
  readonly cancelsAtUpstream: number;
  /** Client gone → the upstream has seen every CancelTask, in seconds. */
  readonly cancelAllSeconds: number;
}

const sleep = (ms: number) => new Promise((done) => setTimeout(done, ms));

async function upstreamStats(rig: BenchRig): Promise<UpstreamStats> {
  const response = await fetch(new URL(UPSTREAM_STATS_PATH.slice(1), rig.upstream.url));
  return (await response.json()) as UpstreamStats;
}

/**
 * Concurrency, memory: `runs` runs held open on a silent upstream while the gateway heartbeats
 * them, on a gateway of their own (heartbeat period shortened so the hold sees several; the original's is
 * fixed at 15 s, so its runs hold without one). Memory per run is
 * (peak RSS with every run open − RSS after warm-up) / runs. The clients then leave, and the gateway must
 * cancel every task upstream.
 */
export async function measureOpenRuns(
  rig: BenchRig,
  gateway: GatewayProcess,
  heartbeatSeconds: number,
): Promise<OpenRunsResult> {
  const { openRuns: runs, openHoldSeconds: holdSeconds } = rig.sizes;
  const openRig = { ...rig, gateway };
  await rig.client.send<StreamReport[]>({
    kind: 'concurrent',
    target: targetFor(openRig, 'gateway', planText({ kind: 'burst', deltas: 100 })),
    runs: 20,
  });
  await sleep(1000);
  const idleRssMb = processRssMb(gateway.pid);
  const before = await upstreamStats(rig);
  const opened = await rig.client.send<number>({
    kind: 'open',
    target: targetFor(openRig, 'gateway', planText({ kind: 'silent' })),
    runs,
    batch: 100,
  });
  const stats = await upstreamStats(rig);
  const cpuStart = processCpuUs(gateway.pid);
  let openRssMb = processRssMb(gateway.pid);
  for (let waited = 0; waited < holdSeconds * 1000; waited += 250) {
    await sleep(250);
    openRssMb = Math.max(openRssMb, processRssMb(gateway.pid));
  }
  const holdCpuCoreShare = (processCpuUs(gateway.pid) - cpuStart) / (holdSeconds * 1e6);
  const closedAt = performance.now();
  const reports = await rig.client.send<{ status: number; comments: number; events: number }[]>({
    kind: 'close-open',
  });
  let cancels = 0;
  for (let waited = 0; waited < 20_000; waited += 100) {
    cancels = (await upstreamStats(rig)).cancels - before.cancels;
    if (cancels >= opened) break;
    await sleep(100);
  }
  const cancelAllSeconds = (performance.now() - closedAt) / 1000;
  await sleep(2000);
  const refused = reports.filter((report) => report.status !== 200).length;
  if (refused > 0) throw new Error(`open runs: ${refused} of ${reports.length} were refused`);
  return {
    runs: opened,
    heartbeatSeconds,
    holdSeconds,
    idleRssMb: round(idleRssMb, 1),
    openRssMb: round(openRssMb, 1),
    perRunKb: round(((openRssMb - idleRssMb) * 1024) / opened, 1),
    afterCloseRssMb: round(processRssMb(gateway.pid), 1),
    heartbeatsPerRun: median(reports.map((report) => report.comments)),
    holdCpuCoreShare: round(holdCpuCoreShare, 3),
    openAtUpstream: stats.openStreams - before.openStreams,
    cancelsAtUpstream: cancels,
    cancelAllSeconds: round(cancelAllSeconds, 2),
  };
}
