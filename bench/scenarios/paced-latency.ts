import { round, summarize } from '../support/sample-stats';
import type { StreamReport } from '../client/client-protocol';
import { planText } from '../upstream/upstream-plan';
import { expectCompleteTurn, targetFor, type BenchRig, type PathName } from './bench-rig';

export interface LatencyFigures {
  readonly n: number;
  readonly p50Ms: number;
  readonly p90Ms: number;
  readonly p99Ms: number;
  readonly maxMs: number;
}

export interface PacedLatencyResult {
  readonly perSecond: number;
  readonly deltas: number;
  readonly paths: Record<Exclude<PathName, 'original'>, LatencyFigures>;
  /** p50 / p99 of the gateway path minus those of the direct path (the same upstream, no hop). */
  readonly gatewayAddedP50Ms: number;
  readonly gatewayAddedP99Ms: number;
  readonly proxyAddedP50Ms: number;
  readonly proxyAddedP99Ms: number;
}

const LATENCY_ROUNDS = 5;

export function latencyFigures(samplesUs: readonly number[]): LatencyFigures {
  const summary = summarize(samplesUs);
  return {
    n: summary.n,
    p50Ms: round(summary.p50 / 1000, 3),
    p90Ms: round(summary.p90 / 1000, 3),
    p99Ms: round(summary.p99 / 1000, 3),
    maxMs: round(summary.max / 1000, 3),
  };
}

/**
 * Added latency : one stream paced at `perSecond`, each delta stamped by the upstream when it
 * writes it; the client subtracts the stamp from its read time (one shared clock). Direct, proxy and
 * gateway run against the same upstream, interleaved in rounds; "added" is gateway minus direct.
 */
export async function measurePacedLatency(rig: BenchRig): Promise<PacedLatencyResult> {
  const { latencyPerSecond: perSecond, latencyDeltas: deltas } = rig.sizes;
  const paths: PathName[] = ['direct', 'proxy', 'gateway'];
  const interval = 1000 / perSecond;
  for (const path of paths) {
    const warmUp = await rig.client.send<StreamReport>({
      kind: 'run',
      target: targetFor(rig, path, planText({ kind: 'paced', intervalMs: interval, deltas: 300 })),
    });
    expectCompleteTurn(warmUp, path, 'latency warm-up');
  }
  // In rounds, the paths interleaved, so a burst of load from a neighbour on a shared machine lands on
  // every path alike instead of on whichever happened to be running.
  const samples: Record<PathName, number[]> = { direct: [], proxy: [], gateway: [], original: [] };
  for (let round = 0; round < LATENCY_ROUNDS; round++) {
    for (const path of paths) {
      const report = await rig.client.send<StreamReport>({
        kind: 'run',
        target: targetFor(
          rig,
          path,
          planText({ kind: 'paced', intervalMs: interval, deltas: deltas / LATENCY_ROUNDS }),
        ),
      });
      expectCompleteTurn(report, path, 'paced latency');
      samples[path].push(...report.latencyUs);
    }
  }
  const figures = {
    direct: latencyFigures(samples.direct),
    proxy: latencyFigures(samples.proxy),
    gateway: latencyFigures(samples.gateway),
  };
  return {
    perSecond,
    deltas,
    paths: figures,
    gatewayAddedP50Ms: round(figures.gateway.p50Ms - figures.direct.p50Ms, 3),
    gatewayAddedP99Ms: round(figures.gateway.p99Ms - figures.direct.p99Ms, 3),
    proxyAddedP50Ms: round(figures.proxy.p50Ms - figures.direct.p50Ms, 3),
    proxyAddedP99Ms: round(figures.proxy.p99Ms - figures.direct.p99Ms, 3),
  };
}
