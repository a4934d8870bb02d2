import type { BenchResult } from './bench-result';
import type { LatencyFigures } from '../scenarios/paced-latency';

const ms = (figures: LatencyFigures) =>
  `p50 ${figures.p50Ms} ms, p90 ${figures.p90Ms} ms, p99 ${figures.p99Ms} ms (n=${figures.n})`;

function table(rows: readonly (readonly string[])[]): string {
  const widths = rows[0].map((_, column) => Math.max(...rows.map((row) => row[column].length)));
  return rows.map((row) => row.map((cell, column) => cell.padEnd(widths[column])).join('  ')).join('\n');
}

/** The console report: the figures against their targets, then what each scenario saw. */
export function formatReport(result: BenchResult): string {
  const { details: d, machine } = result;
  const headline = table([
    ['figure', 'measured', 'target', 'met'],
    ...Object.entries(result.targets).map(([name, check]) => [
      name,
      String(check.measured),
      check.target,
      check.isMet ? 'yes' : 'NO',
    ]),
  ]);
  const t = d.throughput.paths;
  const throughput = table([
    [
      'path',
      'events',
      'relay µs/event',
      'events/s',
      'CPU s (gateway/proxy/upstream/client)',
      'wall s',
      'events/read',
      'events/write()',
    ],
    ...(['gateway', 'proxy', 'direct'] as const).map((path) => [
      path,
      String(t[path].events),
      path === 'direct' ? '-' : String(t[path].cpuUsPerEvent),
      String(t[path].eventsPerSecond),
      ['gateway', 'proxy', 'upstream', 'client'].map((name) => t[path].cpuSeconds[name]).join(' / '),
      String(t[path].wallSeconds),
      String(t[path].eventsPerRead),
      String(t[path].eventsPerWrite ?? '-'),
    ]),
  ]);
  const l = d.pacedLatency;
  const o = d.openRuns;
  const p = d.pacedRuns;
  const s = d.state;
  return [
    `agui-a2a-gateway bench (${result.mode}) ${result.date}`,
    `${machine.cpuModel}, ${machine.cores} cores, ${machine.memoryMb} MB, Node ${machine.node}, ` +
      `load ${machine.loadAverage.join(' ')} → ${machine.loadAverageAtEnd.join(' ')}, ` +
      `${machine.busyCoresDuringRun} cores busy on average`,
    '',
    headline,
    '',
    `cost per event: burst of ${d.throughput.deltas} deltas, median of ${t.gateway.repeats} run(s) per path`,
    throughput,
    '',
    `added latency at ${l.perSecond} events/s (${l.deltas} deltas): direct ${ms(l.paths.direct)}`,
    `  proxy ${ms(l.paths.proxy)} → added p50 ${l.proxyAddedP50Ms} / p99 ${l.proxyAddedP99Ms} ms`,
    `  gateway ${ms(l.paths.gateway)} → added p50 ${l.gatewayAddedP50Ms} / p99 ${l.gatewayAddedP99Ms} ms`,
    `time to first event (${d.firstEvent.runs} runs): RUN_STARTED ${ms(d.firstEvent.firstEvent.gateway)}; ` +
      `first text ${ms(d.firstEvent.firstText.gateway)}; direct first frame ${ms(d.firstEvent.firstEvent.direct)}`,
    `open runs: ${o.runs} heartbeating (every ${o.heartbeatSeconds} s, median ${o.heartbeatsPerRun} in ` +
      `${o.holdSeconds} s): RSS ${o.idleRssMb} → ${o.openRssMb} MB (${o.perRunKb} KB/run), ` +
      `${o.afterCloseRssMb} MB after close; hold CPU ${o.holdCpuCoreShare} core; ` +
      `${o.cancelsAtUpstream} CancelTask in ${o.cancelAllSeconds} s`,
    `paced runs: ${p.runs} × one delta / ${p.intervalMs} ms (${p.eventsPerSecond} events/s):`,
    `  gateway extra delay ${ms(p.gateway.extraDelay)}; path ${ms(p.gateway.pathLatency)}; ` +
      `upstream lateness ${ms(p.gateway.upstreamLateness)}`,
    `  proxy   extra delay ${ms(p.proxy.extraDelay)}; path ${ms(p.proxy.pathLatency)}; ` +
      `upstream lateness ${ms(p.proxy.upstreamLateness)}`,
    `cold start (${d.coldStart.starts}): median ${d.coldStart.medianMs} ms, max ${d.coldStart.maxMs} ms`,
    `state (file store, ${s.threads} threads): admission ${ms(s.firstTurn.admission)}; ` +
      `write ${ms(s.write)}; load ${s.secondTurn.load ? ms(s.secondTurn.load) : '-'}`,
    s.redis
      ? `state (Redis, ${s.redis.threads} threads): admission with lock, read and claim ${ms(s.redis.admission)}; ` +
        `run write ${ms(s.redis.write)}; release ${ms(s.redis.release)}`
      : 'state (Redis): not measured',
  ].join('\n');
}
