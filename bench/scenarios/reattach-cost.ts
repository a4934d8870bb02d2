import { CpuMeter, processRssMb } from '../support/process-stats';
import { round } from '../support/sample-stats';
import type { StreamReport } from '../client/client-protocol';
import type { GatewayProcess } from '../support/bench-processes';
import { planText } from '../upstream/upstream-plan';
import { expectCompleteTurn, targetFor, type BenchRig } from './bench-rig';

export interface ReattachCostResult {
  readonly deltas: number;
  /** Gateway CPU per relayed event, IAC_CODE_AGUI_REATTACH_SECONDS 0 (`off`) and 30 (`on`), over all repeats. */
  readonly cpuUsPerEvent: { readonly off: number; readonly on: number };
  /** on / off. */
  readonly cpuRatio: number;
  readonly detachedRuns: number;
  readonly idleRssMb: number;
  /** RSS with every run detached (its client gone, the run reading on into its log). */
  readonly detachedRssMb: number;
  readonly perDetachedRunKb: number;
}

const sleep = (ms: number) => new Promise((done) => setTimeout(done, ms));

/**
 * What runs that survive their connection cost (docs/behaviour/reattach.md): CPU per event of the same
 * burst through a gateway without and with the window (interleaved, so a noisy neighbour hits both alike;
 * with the window every event is also kept in the run's log), and the memory of detached runs: `runs`
 * paced runs are opened on the gateway with the window, their clients leave after the first deltas, and
 * (RSS with them detached − RSS after warm-up) / runs is the cost of one, its log so far included.
 */
export async function measureReattachCost(
  rig: BenchRig,
  withWindow: GatewayProcess,
  runs: number,
): Promise<ReattachCostResult> {
  const { throughputDeltas: deltas, throughputRepeats: repeats } = rig.sizes;
  const gateways = { off: rig.gateway, on: withWindow };
  const totals = { off: { cpuUs: 0, events: 0 }, on: { cpuUs: 0, events: 0 } };
  for (let repeat = 0; repeat < repeats + 1; repeat++) {
    // The order alternates: whichever gateway runs second pays for the first one's leftovers (an A/A control
    // with the window off on both read × 1.04 with a fixed order, docs/benchmarks.md).
    const order = repeat % 2 === 0 ? (['off', 'on'] as const) : (['on', 'off'] as const);
    for (const name of order) {
      const gateway = gateways[name];
      const meter = new CpuMeter({ gateway: gateway.pid });
      const report = await rig.client.send<StreamReport>({
        kind: 'run',
        target: targetFor({ ...rig, gateway }, 'gateway', planText({ kind: 'burst', deltas })),
      });
      const cpu = meter.read().gateway;
      expectCompleteTurn(report, 'gateway', `reattach cost (${name})`);
      // The first round warms both up.
      if (repeat === 0) continue;
      totals[name].cpuUs += cpu;
      totals[name].events += report.events;
    }
  }
  const perEvent = (name: 'off' | 'on') => totals[name].cpuUs / totals[name].events;
  const idleRssMb = processRssMb(withWindow.pid);
  const paced = targetFor(
    { ...rig, gateway: withWindow },
    'gateway',
    planText({ kind: 'paced', intervalMs: 20, deltas: 3000 }),
  );
  const opened = await rig.client.send<number>({ kind: 'open', target: paced, runs, batch: 50 });
  await sleep(1000);
  await rig.client.send({ kind: 'close-open' });
  // Detached now: each run reads on into its log (50 deltas a second).
  await sleep(2000);
  const detachedRssMb = processRssMb(withWindow.pid);
  return {
    deltas,
    cpuUsPerEvent: { off: round(perEvent('off'), 3), on: round(perEvent('on'), 3) },
    cpuRatio: round(perEvent('on') / perEvent('off'), 3),
    detachedRuns: opened,
    idleRssMb: round(idleRssMb, 1),
    detachedRssMb: round(detachedRssMb, 1),
    perDetachedRunKb: round(((detachedRssMb - idleRssMb) * 1024) / opened, 1),
  };
}
