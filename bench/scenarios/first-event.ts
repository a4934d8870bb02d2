import type { StreamReport } from '../client/client-protocol';
import { planText } from '../upstream/upstream-plan';
import { expectCompleteTurn, targetFor, type BenchRig, type PathName } from './bench-rig';
import { latencyFigures, type LatencyFigures } from './paced-latency';

export interface FirstEventResult {
  readonly runs: number;
  /** POST → RUN_STARTED (gateway) / first frame (direct). */
  readonly firstEvent: Record<'gateway' | 'direct', LatencyFigures>;
  /** POST → first TEXT_MESSAGE_CONTENT (gateway) / first text delta (direct). */
  readonly firstText: Record<'gateway' | 'direct', LatencyFigures>;
}

/**
 * Time to first event : sequential runs whose upstream answers at once with one delta, timed from
 * just before the client sends the POST. Direct to the upstream is the floor (connect, request, first frame).
 */
export async function measureFirstEvent(rig: BenchRig): Promise<FirstEventResult> {
  const runs = rig.sizes.firstEventRuns;
  const firstEvent = {} as FirstEventResult['firstEvent'];
  const firstText = {} as FirstEventResult['firstText'];
  for (const path of ['direct', 'gateway'] as const satisfies PathName[]) {
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
