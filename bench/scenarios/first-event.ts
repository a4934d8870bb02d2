import type { StreamReport } from '../client/client-protocol';
import { planText } from '../upstream/upstream-plan';
import { expectCompleteTurn, pathsOf, targetFor, type BenchRig } from './bench-rig';
import { latencyFigures, type LatencyFigures } from './paced-latency';

export interface FirstEventResult {
  readonly runs: number;
  /** POST → RUN_STARTED (gateway, original) / first frame (direct). */
  readonly firstEvent: Partial<Record<'gateway' | 'original' | 'direct', LatencyFigures>>;
  /** POST → first TEXT_MESSAGE_CONTENT (gateway, original) / first text delta (direct). */
  readonly firstText: Partial<Record<'gateway' | 'original' | 'direct', LatencyFigures>>;
}

/**
 * Time to first event (issue #9): sequential runs whose upstream answers at once with one delta, timed from
 * just before the client sends the POST. Direct to the upstream is the floor (connect, request, first frame).
 */
export async function measureFirstEvent(rig: BenchRig): Promise<FirstEventResult> {
  const runs = rig.sizes.firstEventRuns;
  const firstEvent: FirstEventResult['firstEvent'] = {};
  const firstText: FirstEventResult['firstText'] = {};
  for (const path of pathsOf(rig)) {
    if (path === 'proxy') continue;
    const reports = await rig.client.send<StreamReport[]>({
      kind: 'sequential',
      target: targetFor(rig, path, planText({ kind: 'burst', deltas: 1 })),
      runs,
    });
    reports.forEach((report) => expectCompleteTurn(report, path, 'first event'));
    firstEvent[path] = latencyFigures(reports.map((report) => report.firstEventUs! - report.startedUs));
    firstText[path] = latencyFigures(reports.map((report) => report.firstTextUs! - report.startedUs));
  }
  return { runs, firstEvent, firstText };
}
