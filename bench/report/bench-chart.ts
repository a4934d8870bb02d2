import type { BenchResult } from './bench-result';

/** The three systems the chart compares, in bar order. */
export const CHART_SYSTEMS = ['ours', 'original', 'proxy'] as const;
export type ChartSystem = (typeof CHART_SYSTEMS)[number];

/** One figure: its own panel and scale, since the units differ. Lower is better for every one of them. */
export interface ChartPanel {
  readonly title: string;
  readonly unit: string;
  /** Absent: not measured for that system in this run (the proxy keeps no runs, so it has no memory figures). */
  readonly values: Partial<Record<ChartSystem, number>>;
  /** The target as an absolute bound, drawn as a dashed line (absent when it cannot be computed). */
  readonly target?: number;
  /** What the figure was measured on, under the title. */
  readonly note?: string;
}

const finite = (value: number | undefined) =>
  value !== undefined && Number.isFinite(value) ? value : undefined;

const defined = (entries: Record<ChartSystem, number | undefined>): ChartPanel['values'] =>
  Object.fromEntries(
    Object.entries(entries).flatMap(([system, value]) =>
      finite(value) === undefined ? [] : [[system, value]],
    ),
  );

const minOf = (...bounds: (number | undefined)[]) => {
  const known = bounds.flatMap((bound) => (finite(bound) === undefined ? [] : [bound!]));
  return known.length > 0 ? Math.min(...known) : undefined;
};

/** The side-by-side figures of one bench run (docs/benchmarks.md "Method"), with the targets as bounds. */
export function chartPanelsOf(result: BenchResult): ChartPanel[] {
  const d = result.details;
  const burst = d.throughput.paths;
  const first = d.firstEvent;
  const paced = d.pacedRuns;
  const proxyPerEvent = burst.proxy.cpuUsPerEvent;
  const originalPerEvent = burst.original?.cpuUsPerEvent;
  return [
    {
      title: 'CPU per relayed event',
      unit: 'µs',
      values: defined({
        ours: burst.gateway.cpuUsPerEvent,
        original: originalPerEvent,
        proxy: proxyPerEvent,
      }),
      target: minOf(6 * proxyPerEvent, originalPerEvent === undefined ? undefined : originalPerEvent / 20),
    },
    {
      title: 'POST → first event p50',
      unit: 'ms',
      values: defined({
        ours: first.firstEvent.gateway?.p50Ms,
        original: first.firstEvent.original?.p50Ms,
        proxy: first.firstEvent.proxy?.p50Ms,
      }),
      target: minOf(3, first.firstEvent.original?.p50Ms),
    },
    {
      title: 'POST → first text p50',
      unit: 'ms',
      values: defined({
        ours: first.firstText.gateway?.p50Ms,
        original: first.firstText.original?.p50Ms,
        proxy: first.firstText.proxy?.p50Ms,
      }),
      target: first.firstText.original?.p50Ms,
    },
    {
      title: 'CPU per short run',
      unit: 'ms',
      values: defined({
        ours: first.cpuMsPerRun.gateway,
        original: first.cpuMsPerRun.original,
        proxy: first.cpuMsPerRun.proxy,
      }),
      target: first.cpuMsPerRun.original === undefined ? undefined : first.cpuMsPerRun.original / 3,
    },
    {
      title: 'Paced runs, extra delay p99',
      unit: 'ms',
      note: `${paced.runs} concurrent`,
      values: defined({
        ours: paced.gateway.extraDelay.p99Ms,
        original: paced.original?.extraDelay.p99Ms,
        proxy: paced.proxy.extraDelay.p99Ms,
      }),
      target: 100,
    },
    {
      title: 'RSS idle',
      unit: 'MB',
      values: defined({
        ours: d.openRuns.idleRssMb,
        original: d.originalOpenRuns?.idleRssMb,
        proxy: undefined,
      }),
      target: 100,
    },
    {
      title: 'RSS per open run',
      unit: 'KB',
      note: `${d.openRuns.runs} open`,
      values: defined({
        ours: d.openRuns.perRunKb,
        original: d.originalOpenRuns?.perRunKb,
        proxy: undefined,
      }),
      target: 64,
    },
    {
      title: 'Cold start to first 200',
      unit: 'ms',
      values: defined({
        ours: d.coldStart.medianMs,
        original: d.originalColdStart?.medianMs,
        proxy: undefined,
      }),
      target: 800,
    },
  ];
}

const COLOURS: Record<ChartSystem, string> = { ours: '#2b6cb0', original: '#dd6b20', proxy: '#718096' };
const LABELS: Record<ChartSystem, string> = { ours: 'ours', original: 'Python original', proxy: 'proxy' };

const PANEL = {
  width: 240,
  height: 200,
  columns: 4,
  top: 52,
  barWidth: 44,
  gap: 16,
  plotTop: 44,
  plotBottom: 30,
};

/** 3 significant figures at most, no exponent: the chart's labels are read, not computed with. */
export function formatFigure(value: number): string {
  if (value >= 100) return Math.round(value).toLocaleString('en-US');
  if (value >= 10) return String(Math.round(value * 10) / 10);
  return String(Math.round(value * 100) / 100);
}

const escapeXml = (text: string) =>
  text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

const text = (x: number, y: number, content: string, attributes = '') =>
  `<text x="${x}" y="${y}"${attributes}>${escapeXml(content)}</text>`;

const subtitleOf = (panel: ChartPanel) =>
  [panel.note, panel.target === undefined ? undefined : `target ≤ ${formatFigure(panel.target)} (dashed)`]
    .filter((part) => part !== undefined)
    .join(' · ');

function renderPanel(panel: ChartPanel, index: number): string {
  const x0 = (index % PANEL.columns) * PANEL.width;
  const y0 = PANEL.top + Math.floor(index / PANEL.columns) * PANEL.height;
  const plotHeight = PANEL.height - PANEL.plotTop - PANEL.plotBottom;
  const baseline = y0 + PANEL.plotTop + plotHeight;
  const known = Object.values(panel.values);
  const scale = Math.max(...known, panel.target ?? 0) * 1.12 || 1;
  const heightOf = (value: number) => (value / scale) * plotHeight;
  const barsWidth = CHART_SYSTEMS.length * PANEL.barWidth + (CHART_SYSTEMS.length - 1) * PANEL.gap;
  const left = x0 + (PANEL.width - barsWidth) / 2;
  const parts = [
    text(x0 + PANEL.width / 2, y0 + 16, `${panel.title} (${panel.unit})`, ' class="title"'),
    text(x0 + PANEL.width / 2, y0 + 30, subtitleOf(panel), ' class="note"'),
    `<line x1="${left - 8}" y1="${baseline}" x2="${left + barsWidth + 8}" y2="${baseline}" class="axis"/>`,
  ];
  CHART_SYSTEMS.forEach((system, position) => {
    const x = left + position * (PANEL.barWidth + PANEL.gap);
    const centre = x + PANEL.barWidth / 2;
    const value = panel.values[system];
    if (value === undefined) {
      parts.push(text(centre, baseline - 6, 'n/m', ' class="missing"'));
    } else {
      const height = heightOf(value);
      parts.push(
        `<rect x="${x}" y="${(baseline - height).toFixed(1)}" width="${PANEL.barWidth}" ` +
          `height="${height.toFixed(1)}" fill="${COLOURS[system]}"><title>${escapeXml(
            `${LABELS[system]}: ${value} ${panel.unit}`,
          )}</title></rect>`,
        text(centre, baseline - height - 4, formatFigure(value), ' class="value"'),
      );
    }
    parts.push(text(centre, baseline + 14, LABELS[system].split(' ').pop()!, ' class="label"'));
  });
  if (panel.target !== undefined) {
    const y = (baseline - heightOf(panel.target)).toFixed(1);
    parts.push(`<line x1="${left - 8}" y1="${y}" x2="${left + barsWidth + 8}" y2="${y}" class="target"/>`);
  }
  return `<g>${parts.join('')}</g>`;
}

/** The panels as one self-contained SVG (no script, no external font or stylesheet). */
export function renderChartSvg(panels: readonly ChartPanel[], caption: string): string {
  const rows = Math.ceil(panels.length / PANEL.columns);
  const width = PANEL.columns * PANEL.width;
  const height = PANEL.top + rows * PANEL.height + 8;
  const legend = CHART_SYSTEMS.map((system, position) => {
    const x = 12 + position * 150;
    return (
      `<rect x="${x}" y="30" width="12" height="12" fill="${COLOURS[system]}"/>` +
      text(x + 18, 40, LABELS[system], ' class="legend"')
    );
  }).join('');
  const style =
    'text{font-family:sans-serif;fill:#1a202c}.title{font-size:12px;font-weight:bold;text-anchor:middle}' +
    '.value,.label,.missing{font-size:11px;text-anchor:middle}.missing{fill:#a0aec0}.legend{font-size:12px}' +
    '.caption{font-size:12px}.axis{stroke:#4a5568}.target{stroke:#c53030;stroke-dasharray:4 3}' +
    '.note{font-size:10px;fill:#c53030;text-anchor:middle}';
  return (
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" ` +
    `viewBox="0 0 ${width} ${height}" role="img" aria-label="${escapeXml(caption)}">` +
    `<style>${style}</style><rect width="100%" height="100%" fill="#ffffff"/>` +
    text(12, 18, caption, ' class="caption"') +
    legend +
    text(width - 12, 40, 'lower is better · n/m: not measured', ' class="legend" text-anchor="end"') +
    panels.map(renderPanel).join('') +
    '</svg>\n'
  );
}

/** The chart `npm run bench` writes next to its JSON. */
export function benchChartSvg(result: BenchResult): string {
  const caption =
    `${result.command}, ${result.date} — ${result.machine.cores} cores, ${result.machine.node}, ` +
    `${result.machine.busyCoresDuringRun} cores busy`;
  return renderChartSvg(chartPanelsOf(result), caption);
}
