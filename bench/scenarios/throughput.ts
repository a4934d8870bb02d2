import { CpuMeter, processWriteSyscalls } from '../support/process-stats';
import { median, round } from '../support/sample-stats';
import type { StreamReport } from '../client/client-protocol';
import { planText } from '../upstream/upstream-plan';
import { expectCompleteTurn, pathsOf, relayPid, targetFor, type BenchRig, type PathName } from './bench-rig';

export interface PathThroughput {
  readonly events: number;
  /** CPU of the relaying process (gateway or proxy; for `direct`, none) per relayed event. */
  readonly cpuUsPerEvent: number;
  readonly eventsPerSecond: number;
  /** CPU seconds each process used over the median run, to see which one was saturated. */
  readonly cpuSeconds: Record<string, number>;
  readonly wallSeconds: number;
  /** Events per socket read at the client over the median run: how much the relay's writes were batched. */
  readonly eventsPerRead: number;
  /**
   * Events per write-family syscall of the relaying process over all repeats (/proc/<pid>/io `syscw`; its
   * few non-socket writes, such as the run's state files, count too); absent for `direct`.
   */
  readonly eventsPerWrite?: number;
  readonly repeats: number;
}

export interface ThroughputResult {
  readonly deltas: number;
  readonly paths: Record<Exclude<PathName, 'original'>, PathThroughput> & {
    readonly original?: PathThroughput;
  };
}

const WARM_UP_DELTAS = 5000;

/**
 * Cost per event : the upstream bursts `deltas` pre-encoded deltas as fast as the reader takes
 * them; CPU of each process is read from /proc around the run; events are what the client counted. Paths
 * run interleaved (gateway, proxy, direct, gateway, …) so a noisy neighbour hits them alike; CPU per
 * event is over all repeats, events/s the median run's.
 */
export async function measureThroughput(rig: BenchRig): Promise<ThroughputResult> {
  const { throughputDeltas: deltas, throughputRepeats: repeats } = rig.sizes;
  const paths = pathsOf(rig);
  const pids: Record<string, number> = {
    gateway: rig.gateway.pid,
    ...(rig.original ? { original: rig.original.pid } : {}),
    proxy: rig.proxy.pid,
    upstream: rig.upstream.pid,
    client: rig.client.pid,
  };
  for (const path of paths) {
    const warmUp = await rig.client.send<StreamReport>({
      kind: 'run',
      target: targetFor(rig, path, planText({ kind: 'burst', deltas: WARM_UP_DELTAS })),
    });
    expectCompleteTurn(warmUp, path, 'throughput warm-up');
  }
  const runs: Record<PathName, { report: StreamReport; cpu: Record<string, number>; writes: number }[]> = {
    gateway: [],
    original: [],
    proxy: [],
    direct: [],
  };
  for (let repeat = 0; repeat < repeats; repeat++) {
    for (const path of paths) {
      const meter = new CpuMeter(pids);
      const pid = relayPid(rig, path);
      const writesBefore = pid === undefined ? 0 : processWriteSyscalls(pid);
      const report = await rig.client.send<StreamReport>({
        kind: 'run',
        target: targetFor(rig, path, planText({ kind: 'burst', deltas })),
      });
      const cpu = meter.read();
      const writes = pid === undefined ? 0 : processWriteSyscalls(pid) - writesBefore;
      expectCompleteTurn(report, path, 'throughput');
      runs[path].push({ report, cpu, writes });
    }
  }
  const summarise = (path: PathName): PathThroughput => {
    const relay = path === 'direct' ? undefined : path;
    const perRun = runs[path].map(({ report, cpu, writes }) => ({
      report,
      cpu,
      writes,
      wallSeconds: (report.endedUs - report.startedUs) / 1e6,
    }));
    // Total CPU over total events of every repeat: /proc counts in 10 ms ticks, and the proxy uses only
    // a few dozen of them per run, so one run alone would be quantised.
    const totalEvents = perRun.reduce((sum, run) => sum + run.report.events, 0);
    const totalCpuUs = relay ? perRun.reduce((sum, run) => sum + run.cpu[relay], 0) : 0;
    const totalWrites = perRun.reduce((sum, run) => sum + run.writes, 0);
    const middle = [...perRun].sort((a, b) => a.wallSeconds - b.wallSeconds)[Math.floor(perRun.length / 2)];
    return {
      events: middle.report.events,
      cpuUsPerEvent: round(totalCpuUs / totalEvents, 3),
      eventsPerSecond: Math.round(median(perRun.map((run) => run.report.events / run.wallSeconds))),
      cpuSeconds: Object.fromEntries(
        Object.entries(middle.cpu).map(([name, us]) => [name, round(us / 1e6, 3)]),
      ),
      wallSeconds: round(middle.wallSeconds, 3),
      eventsPerRead: round(middle.report.events / middle.report.chunks, 1),
      ...(relay ? { eventsPerWrite: round(totalEvents / Math.max(totalWrites, 1), 1) } : {}),
      repeats: perRun.length,
    };
  };
  return {
    deltas,
    paths: {
      gateway: summarise('gateway'),
      ...(rig.original ? { original: summarise('original') } : {}),
      proxy: summarise('proxy'),
      direct: summarise('direct'),
    },
  };
}
