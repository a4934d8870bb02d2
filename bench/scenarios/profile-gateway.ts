import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { StreamReport } from '../client/client-protocol';
import { summarizeCpuProfile, type ProfileSummary } from '../profile/summarize-cpu-profile';
import { startGateway, type GatewayOptions } from '../support/bench-processes';
import { planText } from '../upstream/upstream-plan';
import { expectCompleteTurn, targetFor, type BenchRig } from './bench-rig';

export interface GatewayProfileResult {
  readonly deltas: number;
  readonly profilePath: string;
  readonly summary: ProfileSummary;
}

/**
 * Where the gateway's time goes: a gateway started with `--cpu-prof` serves a warm-up and one burst of
 * `deltas`, then stops; V8 writes the profile when the process exits, and the summary groups the samples taken
 * during the burst (process.hrtime and V8's profile clock are both CLOCK_MONOTONIC), idle excluded.
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
  let window = { fromUs: 0, toUs: 0 };
  try {
    const profiledRig = { ...rig, gateway };
    for (const count of [5000, deltas]) {
      const fromUs = monotonicUs();
      const report = await rig.client.send<StreamReport>({
        kind: 'run',
        target: targetFor(profiledRig, 'gateway', planText({ kind: 'burst', deltas: count })),
      });
      expectCompleteTurn(report, 'gateway', 'profiled burst');
      window = { fromUs, toUs: monotonicUs() };
    }
  } finally {
    await gateway.stop();
  }
  const file = (await readdir(profileDir)).find((name) => name.endsWith('.cpuprofile'));
  if (!file) throw new Error(`no .cpuprofile in ${profileDir}: did the gateway exit normally on SIGTERM?`);
  const profilePath = join(profileDir, file);
  const summary = summarizeCpuProfile(JSON.parse(await readFile(profilePath, 'utf8')), 30, window);
  return { deltas, profilePath, summary };
}
