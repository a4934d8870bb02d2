import type { StreamReport } from '../client/client-protocol';
import { planText } from '../upstream/upstream-plan';
import { expectCompleteTurn, pathsOf, targetFor, type BenchRig, type PathName } from './bench-rig';
import { latencyFigures, type LatencyFigures } from './paced-latency';

export interface PacedPathFigures {
  /** Read time − the upstream's schedule: the delay beyond the cadence a user sees. */
  readonly extraDelay: LatencyFigures;
  /** Read time − write stamp: the path alone. */
  readonly pathLatency: LatencyFigures;
  /** Write stamp − schedule: how late the upstream's own timers fired. */
  readonly upstreamLateness: LatencyFigures;
}

export interface PacedRunsResult {
  readonly runs: number;
  readonly intervalMs: number;
  readonly deltasPerRun: number;
  readonly eventsPerSecond: number;
  readonly gateway: PacedPathFigures;
  readonly original?: PacedPathFigures;
  readonly proxy: PacedPathFigures;
}

const PACED_ROUNDS = 2;

async function runPaced(rig: BenchRig, path: PathName, deltas: number): Promise<StreamReport[]> {
  const { pacedRuns: runs, pacedIntervalMs: intervalMs } = rig.sizes;
  const reports = await rig.client.send<StreamReport[]>({
    kind: 'concurrent',
    target: targetFor(rig, path, planText({ kind: 'paced', intervalMs, deltas })),
    runs,
  });
  reports.forEach((report) => expectCompleteTurn(report, path, 'paced runs'));
  return reports;
}

function pacedFigures(reports: readonly StreamReport[]): PacedPathFigures {
  const delays = reports.flatMap((report) => report.delayUs);
  const latencies = reports.flatMap((report) => report.latencyUs);
  return {
    extraDelay: latencyFigures(delays),
    pathLatency: latencyFigures(latencies),
    upstreamLateness: latencyFigures(delays.map((delay, index) => delay - latencies[index])),
  };
}

/**
 * Concurrency, timing : `runs` concurrent runs whose upstream writes one delta every
 * `intervalMs` on a drift-free schedule. The extra delay of a delta is its read time minus the time the
 * schedule meant it to be written, so it counts every late timer and queue on the way. The proxy runs the
 * same load as the floor, the two alternating in rounds.
 */
export async function measurePacedRuns(rig: BenchRig): Promise<PacedRunsResult> {
  const { pacedRuns: runs, pacedIntervalMs: intervalMs, pacedDeltas: deltasPerRun } = rig.sizes;
  const paths = pathsOf(rig).filter((path) => path !== 'direct');
  const reports: Record<PathName, StreamReport[]> = { gateway: [], original: [], proxy: [], direct: [] };
  for (let round = 0; round < PACED_ROUNDS; round++) {
    for (const path of paths) {
      reports[path].push(...(await runPaced(rig, path, deltasPerRun / PACED_ROUNDS)));
    }
  }
  const gateway = pacedFigures(reports.gateway);
  const proxy = pacedFigures(reports.proxy);
  const original = rig.original ? { original: pacedFigures(reports.original) } : {};
  return {
    runs,
    intervalMs,
    deltasPerRun,
    eventsPerSecond: Math.round((runs * 1000) / intervalMs),
    gateway,
    ...original,
    proxy,
  };
}
