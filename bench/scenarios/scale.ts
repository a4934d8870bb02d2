import { readdirSync, readFileSync } from 'node:fs';
import type { HoldFigures, OpenWithinReport, StreamReport } from '../client/client-protocol';
import type { BenchClient, BenchProcess, GatewayProcess } from '../support/bench-processes';
import { processCpuUs, processRssMb } from '../support/process-stats';
import { round } from '../support/sample-stats';
import { sharedNowUs } from '../support/shared-clock';
import { UPSTREAM_STATS_PATH, type UpstreamStats } from '../support/ready-lines';
import { gatewayTarget } from '../support/stream-targets';
import { planText } from '../upstream/upstream-plan';
import { latencyFigures, type LatencyFigures } from './paced-latency';

/** The concurrent open runs of the curve (docs/benchmarks.md#scale). */
export const SCALE_COUNTS = [1, 10, 100, 1000, 3000, 10_000] as const;
/** One delta every 2 s: with a 1 s heartbeat, every silence between two deltas carries one heartbeat. */
const DELTA_INTERVAL_MS = 2000;
const HEARTBEAT_SECONDS = 1;
/** The original's heartbeat is fixed: every 15 s of silence, so a 10 s hold sees none. */
const ORIGINAL_HEARTBEAT_SECONDS = 15;
const HOLD_SECONDS = 10;
/** More deltas than any hold reads: a run stays open until its client leaves. */
const DELTAS_PER_RUN = 100_000;
const OPEN_BATCH = 100;
/** A batch of runs with no first event after this long: the relay is queueing them, the curve stops. */
const FIRST_EVENT_TIMEOUT_MS = 30_000;
/** Descriptors a relay holds besides its runs' two sockets each (listeners, pipes, files, Redis: ~25 here). */
const BASE_DESCRIPTORS = 128;

export type ScaleRelay = 'file' | 'redis' | 'original';

export interface ScalePoint {
  readonly relay: ScaleRelay;
  readonly runs: number;
  /** Why the point was not measured, or why the opening stopped short (then the other figures are absent). */
  readonly stoppedBy?: string;
  readonly opened?: number;
  /** Runs whose response ended during the hold (none should). */
  readonly lost?: number;
  /** Open runs that read no delta during the hold: queued by the relay, not relayed. */
  readonly starved?: number;
  readonly idleRssMb?: number;
  readonly peakRssMb?: number;
  readonly perRunKb?: number;
  /** Relay CPU over the hold, as a share of one core. */
  readonly cpuCoreShare?: number;
  /** Paced delta read − its schedule, over the hold. */
  readonly extraDelay?: LatencyFigures;
  /** Heartbeat read − (previous record read + the heartbeat period), over the hold. */
  readonly heartbeatLateness?: LatencyFigures;
  /** The gateway's event-loop delay over the hold (its `nodejs_eventloop_lag_*` gauges). */
  readonly eventLoopDelayP50Ms?: number;
  readonly eventLoopDelayP99Ms?: number;
  readonly eventLoopDelayMaxMs?: number;
  /** Open descriptors at the peak. */
  readonly descriptors?: number;
  /** Client gone → the upstream has seen every CancelTask, in seconds. */
  readonly cancelAllSeconds?: number;
}

export interface ScaleRig {
  readonly client: BenchClient;
  readonly upstream: BenchProcess;
  readonly cwd: string;
  /** A fresh relay of this kind, heartbeat every HEARTBEAT_SECONDS where it can be set. */
  startRelay(relay: ScaleRelay, heartbeatSeconds: number): Promise<GatewayProcess>;
}

const sleep = (ms: number) => new Promise((done) => setTimeout(done, ms));

/** The soft `RLIMIT_NOFILE` this process (and so every child it spawns) has. */
export function openFileLimit(): number {
  const line = /^Max open files\s+(\d+)/m.exec(readFileSync('/proc/self/limits', 'utf8'));
  return line ? Number(line[1]) : Number.POSITIVE_INFINITY;
}

/** Descriptors a relay needs for `runs` open runs: a client socket and an upstream socket each. */
export function descriptorsNeeded(runs: number): number {
  return 2 * runs + BASE_DESCRIPTORS;
}

async function upstreamStats(upstream: BenchProcess): Promise<UpstreamStats> {
  const response = await fetch(new URL(UPSTREAM_STATS_PATH.slice(1), upstream.url));
  return (await response.json()) as UpstreamStats;
}

/** Reads (and so resets: prom-client restarts its histogram at each collect) the gateway's event-loop gauges. */
async function eventLoopDelayMs(gateway: GatewayProcess): Promise<Record<'p50' | 'p99' | 'max', number>> {
  const text = await fetch(`${gateway.url}metrics`).then(
    (response) => response.text(),
    () => '',
  );
  const gauge = (name: string) =>
    round(Number(new RegExp(`^nodejs_eventloop_lag_${name}_seconds (\\S+)$`, 'm').exec(text)?.[1]) * 1000, 1);
  return { p50: gauge('p50'), p99: gauge('p99'), max: gauge('max') };
}

function descriptorCount(pid: number): number {
  return readdirSync(`/proc/${pid}/fd`).length;
}

/**
 * One point of the curve: a fresh relay, warmed up with 20 short runs, then `runs` runs opened in batches of
 * 100, each fed one paced delta every 2 s, held HOLD_SECONDS; the figures are read over the hold only. Then the
 * clients leave and the upstream must see every CancelTask.
 */
async function measurePoint(rig: ScaleRig, relay: ScaleRelay, runs: number): Promise<ScalePoint> {
  const limit = openFileLimit();
  if (descriptorsNeeded(runs) > limit) {
    return {
      relay,
      runs,
      stoppedBy: `descriptors: ${descriptorsNeeded(runs)} needed, ulimit -n is ${limit}`,
    };
  }
  const heartbeatSeconds = relay === 'original' ? ORIGINAL_HEARTBEAT_SECONDS : HEARTBEAT_SECONDS;
  const gateway = await rig.startRelay(relay, heartbeatSeconds);
  try {
    await rig.client.send<StreamReport[]>({
      kind: 'concurrent',
      target: gatewayTarget(gateway.url, planText({ kind: 'burst', deltas: 100 }), rig.cwd),
      runs: 20,
    });
    await sleep(1000);
    const idleRssMb = processRssMb(gateway.pid);
    const before = await upstreamStats(rig.upstream);
    const opening = await rig.client.send<OpenWithinReport>({
      kind: 'open-within',
      target: gatewayTarget(
        gateway.url,
        planText({ kind: 'paced', intervalMs: DELTA_INTERVAL_MS, deltas: DELTAS_PER_RUN }),
        rig.cwd,
      ),
      runs,
      batch: OPEN_BATCH,
      firstEventTimeoutMs: FIRST_EVENT_TIMEOUT_MS,
    });
    if (opening.opened < runs || opening.ended > 0) {
      await rig.client.send({ kind: 'close-open' });
      return {
        relay,
        runs,
        opened: opening.opened,
        stoppedBy:
          opening.ended > 0
            ? `${opening.ended} of ${opening.opened} responses ended while opening`
            : `a batch saw no first event within ${FIRST_EVENT_TIMEOUT_MS / 1000} s after ${opening.opened - OPEN_BATCH} runs`,
      };
    }
    const holdStartUs = sharedNowUs();
    const cpuStart = processCpuUs(gateway.pid);
    if (relay !== 'original') await eventLoopDelayMs(gateway);
    let peakRssMb = processRssMb(gateway.pid);
    let descriptors = descriptorCount(gateway.pid);
    for (let waited = 0; waited < HOLD_SECONDS * 1000; waited += 250) {
      await sleep(250);
      peakRssMb = Math.max(peakRssMb, processRssMb(gateway.pid));
      descriptors = Math.max(descriptors, descriptorCount(gateway.pid));
    }
    const cpuCoreShare = (processCpuUs(gateway.pid) - cpuStart) / (HOLD_SECONDS * 1e6);
    const loop = relay !== 'original' ? await eventLoopDelayMs(gateway) : undefined;
    const hold = await rig.client.send<HoldFigures>({ kind: 'hold-figures', sinceUs: holdStartUs });
    const closedAt = performance.now();
    await rig.client.send({ kind: 'close-open' });
    let cancels = 0;
    for (let waited = 0; waited < 20_000; waited += 100) {
      cancels = (await upstreamStats(rig.upstream)).cancels - before.cancels;
      if (cancels >= runs) break;
      await sleep(100);
    }
    return {
      relay,
      runs,
      opened: opening.opened,
      lost: runs - hold.open,
      starved: hold.starved,
      idleRssMb: round(idleRssMb, 1),
      peakRssMb: round(peakRssMb, 1),
      perRunKb: round(((peakRssMb - idleRssMb) * 1024) / runs, 1),
      cpuCoreShare: round(cpuCoreShare, 3),
      extraDelay: latencyFigures(hold.delayUs),
      ...(hold.heartbeatGapUs.length > 0
        ? {
            heartbeatLateness: latencyFigures(
              hold.heartbeatGapUs.map((gapUs) => Math.max(0, gapUs - heartbeatSeconds * 1e6)),
            ),
          }
        : {}),
      ...(loop
        ? { eventLoopDelayP50Ms: loop.p50, eventLoopDelayP99Ms: loop.p99, eventLoopDelayMaxMs: loop.max }
        : {}),
      descriptors,
      cancelAllSeconds: round((performance.now() - closedAt) / 1000, 2),
    };
  } finally {
    await gateway.stop();
  }
}

/**
 * The scale curve (`npm run bench -- --scale`): every count of SCALE_COUNTS against one replica with the file
 * store, then with Redis, then the original, each relay until a point stops (descriptors, or runs it queues).
 */
export async function measureScale(
  rig: ScaleRig,
  relays: readonly ScaleRelay[],
  log: (line: string) => void,
  counts: readonly number[] = SCALE_COUNTS,
): Promise<ScalePoint[]> {
  const points: ScalePoint[] = [];
  for (const relay of relays) {
    for (const runs of counts) {
      log(`scale: ${runs} open runs on ${relay}`);
      const point = await measurePoint(rig, relay, runs);
      points.push(point);
      if (!point.stoppedBy) continue;
      log(`scale: ${relay} stopped at ${runs}: ${point.stoppedBy}`);
      // Stopped by the descriptor limit: the largest count it allows is the measured bound.
      const largest = Math.floor((openFileLimit() - BASE_DESCRIPTORS) / 200) * 100;
      if (point.opened === undefined && largest > (points.at(-2)?.runs ?? 0)) {
        log(`scale: ${largest} open runs on ${relay} (the most the descriptor limit allows)`);
        points.push(await measurePoint(rig, relay, largest));
      }
      break;
    }
  }
  return points;
}
