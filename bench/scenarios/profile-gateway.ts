import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { StreamReport } from '../client/client-protocol';
import {
  summarizeCpuProfile,
  type ProfileSummary,
  type ProfileWindow,
} from '../profile/summarize-cpu-profile';
import { startGateway, type GatewayOptions } from '../support/bench-processes';
import { planText } from '../upstream/upstream-plan';
import { expectCompleteTurn, targetFor, type BenchRig } from './bench-rig';

/** Sequential one-delta runs the per-run profile covers (the first-event scenario's run). */
export const PROFILED_SHORT_RUNS = 300;

export interface GatewayProfileResult {
  readonly deltas: number;
  readonly profilePath: string;
  /** The burst of `deltas`: the per-event cost. */
  readonly summary: ProfileSummary;
  /** `shortRuns` sequential `burst 1` runs: the fixed cost of a run (admission, state, 6 events). */
  readonly shortRuns: number;
  readonly shortRunSummary: ProfileSummary;
}

/**
 * Where the gateway's time goes: a gateway started with `--cpu-prof` serves a warm-up, one burst of
 * `deltas`, then (after a warm-up of its own) `PROFILED_SHORT_RUNS` sequential one-delta runs, and stops;
 * V8 writes the profile when the process exits, and each summary groups the samples taken during its own
 * window (process.hrtime and V8's profile clock are both CLOCK_MONOTONIC), idle excluded.
 */
export async function profileGateway(
  rig: Omit<BenchRig, 'gateway'>,
  options: GatewayOptions,
  profileDir: string,
): Promise<GatewayProfileResult> {
  const deltas = rig.sizes.throughputDeltas;
  const gateway = await startGateway({
    ...options,
    nodeFlags: ['--cpu-prof', `--cpu-prof-dir=${profileDir}`],
  });
  const monotonicUs = () => Number(process.hrtime.bigint() / 1000n);
  let burstWindow: ProfileWindow = { fromUs: 0, toUs: 0 };
  let shortWindow: ProfileWindow = { fromUs: 0, toUs: 0 };
  try {
    const profiledRig = { ...rig, gateway };
    for (const count of [5000, deltas]) {
      const fromUs = monotonicUs();
      const report = await rig.client.send<StreamReport>({
        kind: 'run',
        target: targetFor(profiledRig, 'gateway', planText({ kind: 'burst', deltas: count })),
      });
      expectCompleteTurn(report, 'gateway', 'profiled burst');
      burstWindow = { fromUs, toUs: monotonicUs() };
    }
    const shortTarget = targetFor(profiledRig, 'gateway', planText({ kind: 'burst', deltas: 1 }));
    for (const runs of [50, PROFILED_SHORT_RUNS]) {
      const fromUs = monotonicUs();
      const reports = await rig.client.send<StreamReport[]>({
        kind: 'sequential',
        target: shortTarget,
        runs,
      });
      reports.forEach((report) => expectCompleteTurn(report, 'gateway', 'profiled short run'));
      shortWindow = { fromUs, toUs: monotonicUs() };
    }
  } finally {
    await gateway.stop();
  }
  const file = (await readdir(profileDir)).find((name) => name.endsWith('.cpuprofile'));
  if (!file) throw new Error(`no .cpuprofile in ${profileDir}: did the gateway exit normally on SIGTERM?`);
  const profilePath = join(profileDir, file);
  const profile = JSON.parse(await readFile(profilePath, 'utf8'));
  return {
    deltas,
    profilePath,
    summary: summarizeCpuProfile(profile, 30, burstWindow),
    shortRuns: PROFILED_SHORT_RUNS,
    shortRunSummary: summarizeCpuProfile(profile, 40, shortWindow),
  };
}
