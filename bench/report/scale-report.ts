import type { ScalePoint, ScaleRelay } from '../scenarios/scale';

const RELAY_NAMES: Record<ScaleRelay, string> = {
  file: 'ours, file store',
  redis: 'ours, Redis',
  original: 'original 0.16.0',
};
const RELAY_COLOURS: Record<ScaleRelay, string> = { file: '#1f77b4', redis: '#2ca02c', original: '#d62728' };

const cell = (value: number | undefined, digits = 1) => (value === undefined ? '—' : value.toFixed(digits));

/** The scale curve as a Markdown table, one row per relay and count; a stopped point says what stopped it. */
export function formatScaleTable(points: readonly ScalePoint[]): string {
  const header =
    '| relay | runs | RSS MB (idle → peak) | KB / run | CPU, cores | extra delay p50 / p99 ms | ' +
    'heartbeat late p99 ms | loop delay p99 ms | fds | lost / starved |';
  const rule = '|---|--:|--:|--:|--:|--:|--:|--:|--:|--:|';
  const rows = points.map((point) => {
    const name = RELAY_NAMES[point.relay];
    if (point.stoppedBy) return `| ${name} | ${point.runs} | stopped: ${point.stoppedBy} | | | | | | | |`;
    return (
      `| ${name} | ${point.runs} | ${cell(point.idleRssMb)} → ${cell(point.peakRssMb)} | ` +
      `${cell(point.perRunKb)} | ${cell(point.cpuCoreShare, 2)} | ` +
      `${cell(point.extraDelay?.p50Ms)} / ${cell(point.extraDelay?.p99Ms)} | ` +
      `${cell(point.heartbeatLateness?.p99Ms)} | ${cell(point.eventLoopDelayP99Ms)} | ` +
      `${point.descriptors ?? '—'} | ${point.lost ?? '—'} / ${point.starved ?? '—'} |`
    );
  });
  return [header, rule, ...rows].join('\n');
}

interface Panel {
  readonly title: string;
  readonly value: (point: ScalePoint) => number | undefined;
}

const PANELS: readonly Panel[] = [
  { title: 'peak RSS, MB', value: (point) => point.peakRssMb },
  { title: 'extra delay p99, ms', value: (point) => point.extraDelay?.p99Ms },
  { title: 'CPU held, cores', value: (point) => point.cpuCoreShare },
];

/** A small SVG: one panel per figure, open runs on a log axis, one line per relay. */
export function scaleChartSvg(points: readonly ScalePoint[]): string {
  const width = 260;
  const height = 180;
  const pad = { left: 44, right: 10, top: 24, bottom: 30 };
  const measured = points.filter((point) => !point.stoppedBy);
  const counts = [...new Set(measured.map((point) => point.runs))].sort((a, b) => a - b);
  const logMin = Math.log10(Math.max(1, counts[0] ?? 1));
  const logMax = Math.log10(Math.max(10, counts[counts.length - 1] ?? 10));
  const x = (runs: number) =>
    pad.left + ((Math.log10(runs) - logMin) / (logMax - logMin || 1)) * (width - pad.left - pad.right);
  const relays = [...new Set(measured.map((point) => point.relay))];
  const panels = PANELS.map((panel, index) => {
    const values = measured.flatMap((point) => {
      const value = panel.value(point);
      return value === undefined || !Number.isFinite(value) ? [] : [value];
    });
    const top = Math.max(...values, 0) * 1.1 || 1;
    const y = (value: number) => pad.top + (1 - value / top) * (height - pad.top - pad.bottom);
    const lines = relays.map((relay) => {
      const path = measured
        .filter((point) => point.relay === relay && panel.value(point) !== undefined)
        .map((point) => `${x(point.runs).toFixed(1)},${y(panel.value(point)!).toFixed(1)}`);
      return `<polyline fill="none" stroke="${RELAY_COLOURS[relay]}" stroke-width="2" points="${path.join(' ')}"/>`;
    });
    const ticks = counts.map(
      (runs) =>
        `<text x="${x(runs).toFixed(1)}" y="${height - 12}" font-size="9" text-anchor="middle">${runs}</text>`,
    );
    return (
      `<g transform="translate(${index * width},0)">` +
      `<text x="${pad.left}" y="14" font-size="11" font-weight="bold">${panel.title}</text>` +
      `<line x1="${pad.left}" y1="${height - pad.bottom}" x2="${width - pad.right}" y2="${height - pad.bottom}" stroke="#999"/>` +
      `<text x="${pad.left - 4}" y="${pad.top + 4}" font-size="9" text-anchor="end">${top.toPrecision(3)}</text>` +
      `<text x="${pad.left - 4}" y="${height - pad.bottom}" font-size="9" text-anchor="end">0</text>` +
      `${ticks.join('')}${lines.join('')}</g>`
    );
  });
  const legend = relays.map(
    (relay, index) =>
      `<text x="${10 + index * 150}" y="${height + 12}" font-size="10" fill="${RELAY_COLOURS[relay]}">■ ${RELAY_NAMES[relay]}</text>`,
  );
  return (
    `<svg xmlns="http://www.w3.org/2000/svg" width="${PANELS.length * width}" height="${height + 20}" ` +
    `font-family="sans-serif">${panels.join('')}${legend.join('')}` +
    `<text x="${PANELS.length * width - 10}" y="${height + 12}" font-size="9" text-anchor="end">open runs (log)</text></svg>\n`
  );
}
