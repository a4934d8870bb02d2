import type { ProfileLine } from '../profile/summarize-cpu-profile';
import type { GatewayProfileResult } from '../scenarios/profile-gateway';

function section(title: string, lines: readonly ProfileLine[], count: number): string[] {
  return [
    title,
    ...lines
      .slice(0, count)
      .map(
        (line) =>
          `  ${line.percent.toFixed(1).padStart(5)}%  ${line.ms.toFixed(0).padStart(6)} ms  ${line.name}`,
      ),
  ];
}

/** The `--profile` console report: where the gateway's CPU went during the burst, then per short run. */
export function formatProfile(result: GatewayProfileResult): string {
  const { summary, shortRunSummary: short } = result;
  const perRunMs = (short.totalMs / result.shortRuns).toFixed(2);
  return [
    `gateway CPU profile over a burst of ${result.deltas} deltas: ${summary.totalMs} ms on CPU (idle excluded)`,
    `profile: ${result.profilePath}`,
    ...section('self time by area', summary.selfByArea, 15),
    ...section('self time by function', summary.selfByFunction, 30),
    ...section('inclusive time by function', summary.inclusiveByFunction, 30),
    '',
    `gateway CPU profile over ${result.shortRuns} sequential one-delta runs: ${short.totalMs} ms on CPU ` +
      `(${perRunMs} ms per run, idle excluded; the profiler's own overhead included)`,
    ...section('self time by area', short.selfByArea, 20),
    ...section('self time by function', short.selfByFunction, 40),
    ...section('inclusive time by function', short.inclusiveByFunction, 40),
  ].join('\n');
}
