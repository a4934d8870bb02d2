import type { StreamReport } from '../client/client-protocol';
import { planText } from '../upstream/upstream-plan';
import { CpuMeter } from '../support/process-stats';
import { round } from '../support/sample-stats';
import { expectCompleteTurn, pathsOf, relayPid, targetFor, type BenchRig, type PathName } from './bench-rig';
import { latencyFigures, type LatencyFigures } from './paced-latency';

export interface FirstEventResult {
  readonly runs: number;
  /** POST → RUN_STARTED (gateway, original) / first frame (proxy, direct). */
  readonly firstEvent: Partial<Record<PathName, LatencyFigures>>;
  /** POST → first TEXT_MESSAGE_CONTENT (gateway, original) / first text delta (proxy, direct). */
  readonly firstText: Partial<Record<PathName, LatencyFigures>>;
  /**
   * CPU of the relaying process per short run (admission, state, one delta: 6 AG-UI events), ms: its
   * /proc CPU over the sequential runs ÷ runs. Absent for direct.
   */
  readonly cpuMsPerRun: Partial<Record<PathName, number>>;
}

/**
 * Time to first event : sequential runs whose upstream answers at once with one delta, timed from
 * just before the client sends the POST. Direct to the upstream is the floor (connect, request, first frame).
 * The same runs give each relay's CPU per short run, in steady state: each path first serves as many runs
 * unmeasured, so a freshly started relay's JIT warm-up (V8's, heavier than CPython's) is not counted as
 * the cost of a run (docs/benchmarks.md#per-run-profile).
 */
export async function measureFirstEvent(rig: BenchRig): Promise<FirstEventResult> {
  const runs = rig.sizes.firstEventRuns;
  const firstEvent: FirstEventResult['firstEvent'] = {};
  const firstText: FirstEventResult['firstText'] = {};
  const cpuMsPerRun: FirstEventResult['cpuMsPerRun'] = {};
  for (const path of pathsOf(rig)) {
    const pid = relayPid(rig, path);
    const warmUp = await rig.client.send<StreamReport[]>({
      kind: 'sequential',
      target: targetFor(rig, path, planText({ kind: 'burst', deltas: 1 })),
      runs,
    });
    warmUp.forEach((report) => expectCompleteTurn(report, path, 'first event warm-up'));
    const meter = pid === undefined ? undefined : new CpuMeter({ relay: pid });
    const reports = await rig.client.send<StreamReport[]>({
      kind: 'sequential',
      target: targetFor(rig, path, planText({ kind: 'burst', deltas: 1 })),
      runs,
    });
    if (meter) cpuMsPerRun[path] = round(meter.read().relay / 1000 / runs, 3);
    reports.forEach((report) => expectCompleteTurn(report, path, 'first event'));
    firstEvent[path] = latencyFigures(reports.map((report) => report.firstEventUs! - report.startedUs));
    firstText[path] = latencyFigures(reports.map((report) => report.firstTextUs! - report.startedUs));
  }
  return { runs, firstEvent, firstText, cpuMsPerRun };
}
