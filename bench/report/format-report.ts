import type { BenchResult } from './bench-result';
import type { FirstEventResult } from '../scenarios/first-event';
import type { OpenRunsResult } from '../scenarios/open-runs';
import type { LatencyFigures } from '../scenarios/paced-latency';
import type { PacedPathFigures } from '../scenarios/paced-runs';

const ms = (figures: LatencyFigures | undefined) =>
  figures
    ? `p50 ${figures.p50Ms} ms, p90 ${figures.p90Ms} ms, p99 ${figures.p99Ms} ms (n=${figures.n})`
    : 'not measured';

const openRunsLine = (name: string, o: OpenRunsResult) =>
  `open runs, ${name}: ${o.runs} (heartbeat every ${o.heartbeatSeconds} s, median ${o.heartbeatsPerRun} in ` +
  `${o.holdSeconds} s): RSS ${o.idleRssMb} → ${o.openRssMb} MB (${o.perRunKb} KB/run), ` +
  `${o.afterCloseRssMb} MB after close; hold CPU ${o.holdCpuCoreShare} core; ${o.openAtUpstream} open at ` +
  `the upstream; ${o.cancelsAtUpstream} CancelTask in ${o.cancelAllSeconds} s`;

const pacedLine = (name: string, figures: PacedPathFigures) =>
  `  ${name.padEnd(8)} extra delay ${ms(figures.extraDelay)}; path ${ms(figures.pathLatency)}; ` +
  `upstream lateness ${ms(figures.upstreamLateness)}`;

function table(rows: readonly (readonly string[])[]): string {
  const widths = rows[0].map((_, column) => Math.max(...rows.map((row) => row[column].length)));
  return rows.map((row) => row.map((cell, column) => cell.padEnd(widths[column])).join('  ')).join('\n');
}

const p50p90 = (figures: LatencyFigures | undefined) =>
  figures ? `${figures.p50Ms} / ${figures.p90Ms} ms` : '-';

const cell = (value: number | undefined, unit = '') => (value === undefined ? '-' : `${value}${unit}`);

/** The per-system table: each figure for ours, the original, the proxy and direct where it applies. */
function sideBySideRows(result: BenchResult): string[][] {
  const { details: d } = result;
  const t = d.throughput.paths;
  const f = d.firstEvent;
  const p = d.pacedRuns;
  const p50p99 = (figures: PacedPathFigures | undefined) =>
    figures ? `${figures.extraDelay.p50Ms} / ${figures.extraDelay.p99Ms} ms` : '-';
  const firstRow = (name: string, figures: FirstEventResult['firstEvent']) => [
    name,
    p50p90(figures.gateway),
    p50p90(figures.original),
    p50p90(figures.proxy),
    p50p90(figures.direct),
  ];
  const rss = (o: OpenRunsResult | undefined) => (o ? `${o.idleRssMb} MB / ${o.perRunKb} KB` : '-');
  return [
    [
      'CPU µs / event (burst)',
      cell(t.gateway.cpuUsPerEvent),
      cell(t.original?.cpuUsPerEvent),
      cell(t.proxy.cpuUsPerEvent),
      '-',
    ],
    [
      'events / s (burst)',
      cell(t.gateway.eventsPerSecond),
      cell(t.original?.eventsPerSecond),
      cell(t.proxy.eventsPerSecond),
      cell(t.direct.eventsPerSecond),
    ],
    [
      'events / write()',
      cell(t.gateway.eventsPerWrite),
      cell(t.original?.eventsPerWrite),
      cell(t.proxy.eventsPerWrite),
      '-',
    ],
    firstRow('POST → RUN_STARTED p50 / p90', f.firstEvent),
    firstRow('POST → first text p50 / p90', f.firstText),
    [
      `CPU per short run (${f.runs} runs)`,
      cell(f.cpuMsPerRun.gateway, ' ms'),
      cell(f.cpuMsPerRun.original, ' ms'),
      cell(f.cpuMsPerRun.proxy, ' ms'),
      '-',
    ],
    [
      `${p.runs} paced runs, extra delay p50 / p99`,
      p50p99(p.gateway),
      p50p99(p.original),
      p50p99(p.proxy),
      '-',
    ],
    [`RSS idle / per open run (${d.openRuns.runs})`, rss(d.openRuns), rss(d.originalOpenRuns), '-', '-'],
    [
      'cold start (median)',
      cell(d.coldStart.medianMs, ' ms'),
      cell(d.originalColdStart?.medianMs, ' ms'),
      '-',
      '-',
    ],
  ];
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
      'CPU s (gateway/original/proxy/upstream/client)',
      'wall s',
      'events/read',
      'events/write()',
    ],
    ...(['gateway', 'original', 'proxy', 'direct'] as const).flatMap((path) => {
      const figures = t[path];
      if (!figures) return [];
      return [
        [
          path,
          String(figures.events),
          path === 'direct' ? '-' : String(figures.cpuUsPerEvent),
          String(figures.eventsPerSecond),
          ['gateway', 'original', 'proxy', 'upstream', 'client']
            .map((name) => figures.cpuSeconds[name] ?? '-')
            .join(' / '),
          String(figures.wallSeconds),
          String(figures.eventsPerRead),
          String(figures.eventsPerWrite ?? '-'),
        ],
      ];
    }),
  ]);
  const sideBySide = table([
    ['side by side', 'ours', 'original', 'proxy', 'direct'],
    ...sideBySideRows(result),
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
    sideBySide,
    '',
    `cost per event: burst of ${d.throughput.deltas} deltas, median of ${t.gateway.repeats} run(s) per path`,
    throughput,
    '',
    `added latency at ${l.perSecond} events/s (${l.deltas} deltas): direct ${ms(l.paths.direct)}`,
    `  proxy ${ms(l.paths.proxy)} → added p50 ${l.proxyAddedP50Ms} / p99 ${l.proxyAddedP99Ms} ms`,
    `  gateway ${ms(l.paths.gateway)} → added p50 ${l.gatewayAddedP50Ms} / p99 ${l.gatewayAddedP99Ms} ms`,
    `time to first event (${d.firstEvent.runs} runs): direct first frame ${ms(d.firstEvent.firstEvent.direct)}`,
    `  gateway RUN_STARTED ${ms(d.firstEvent.firstEvent.gateway)}; first text ${ms(d.firstEvent.firstText.gateway)}`,
    `  original RUN_STARTED ${ms(d.firstEvent.firstEvent.original)}; first text ${ms(d.firstEvent.firstText.original)}`,
    openRunsLine('gateway', o),
    d.originalOpenRuns ? openRunsLine('original', d.originalOpenRuns) : 'open runs, original: not measured',
    `paced runs: ${p.runs} × one delta / ${p.intervalMs} ms (${p.eventsPerSecond} events/s):`,
    pacedLine('gateway', p.gateway),
    ...(p.original ? [pacedLine('original', p.original)] : []),
    pacedLine('proxy', p.proxy),
    reattachLine(d.reattach),
    `cold start (${d.coldStart.starts}): median ${d.coldStart.medianMs} ms, max ${d.coldStart.maxMs} ms; ` +
      (d.originalColdStart
        ? `original median ${d.originalColdStart.medianMs} ms, max ${d.originalColdStart.maxMs} ms`
        : 'original not measured'),
    `state (file store, ${s.threads} threads): admission ${ms(s.firstTurn.admission)}; ` +
      `write ${ms(s.write)}; load ${s.secondTurn.load ? ms(s.secondTurn.load) : '-'}`,
    s.redis
      ? `state (Redis, ${s.redis.threads} threads): admission with lock, read and claim ${ms(s.redis.admission)}; ` +
        `run write ${ms(s.redis.write)}; release ${ms(s.redis.release)}`
      : 'state (Redis): not measured',
  ].join('\n');
}

/** Old result files predate the scenario. */
function reattachLine(r: BenchResult['details']['reattach'] | undefined): string {
  if (!r) return 'reattach cost: not measured';
  return (
    `reattach cost: CPU per event ${r.cpuUsPerEvent.off} µs without a window, ${r.cpuUsPerEvent.on} µs with one ` +
    `(× ${r.cpuRatio}); ${r.detachedRuns} detached runs: ${r.perDetachedRunKb} KB each ` +
    `(RSS ${r.idleRssMb} → ${r.detachedRssMb} MB)`
  );
}
