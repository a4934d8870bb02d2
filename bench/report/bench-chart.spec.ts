import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { chartPanelsOf, formatFigure, renderChartSvg, type ChartPanel } from './bench-chart';
import type { BenchResult } from './bench-result';

const referenceRun = () =>
  JSON.parse(
    readFileSync(join(__dirname, '../results/2026-12-01T13-42-44.016Z.json'), 'utf8'),
  ) as BenchResult;

const barsOf = (svg: string) =>
  [...svg.matchAll(/<rect x="[\d.]+" y="([\d.]+)" width="\d+" height="([\d.]+)" fill="(#[0-9a-f]+)">/g)].map(
    (match) => ({ top: Number(match[1]), height: Number(match[2]), fill: match[3] }),
  );

describe('bench chart', () => {
  it('has one panel per side-by-side figure, read from the run, the proxy absent where it keeps no runs', () => {
    const result = referenceRun();
    const panels = chartPanelsOf(result);
    expect(panels.map((panel) => panel.title)).toEqual([
      'CPU per relayed event',
      'POST → first event p50',
      'POST → first text p50',
      'CPU per short run',
      'Paced runs, extra delay p99',
      'RSS idle',
      'RSS per open run',
      'Cold start to first 200',
    ]);
    expect(panels[0].values).toEqual({
      ours: result.details.throughput.paths.gateway.cpuUsPerEvent,
      original: result.details.throughput.paths.original!.cpuUsPerEvent,
      proxy: result.details.throughput.paths.proxy.cpuUsPerEvent,
    });
    expect(panels[6].values).toEqual({
      ours: result.details.openRuns.perRunKb,
      original: result.details.originalOpenRuns!.perRunKb,
    });
    expect(panels[3].target).toBeCloseTo(result.details.firstEvent.cpuMsPerRun.original! / 3);
  });

  it('draws bars in proportion within a panel, and marks a missing figure instead of a zero bar', () => {
    const panel: ChartPanel = {
      title: 'RSS idle',
      unit: 'MB',
      values: { ours: 200, original: 100 },
      target: 50,
    };
    const svg = renderChartSvg([panel], 'caption');
    const bars = barsOf(svg);
    expect(bars.map((bar) => bar.fill)).toEqual(['#2b6cb0', '#dd6b20']);
    expect(bars[0].height / bars[1].height).toBeCloseTo(2, 2);
    expect(bars[0].top + bars[0].height).toBeCloseTo(bars[1].top + bars[1].height, 5);
    expect(svg).toContain('>n/m</text>');
    expect(svg).toContain('target ≤ 50 (dashed)');
  });

  it('scales each panel on its own figure (units differ)', () => {
    const svg = renderChartSvg(
      [
        { title: 'a', unit: 'µs', values: { ours: 2 } },
        { title: 'b', unit: 'ms', values: { ours: 2000 } },
      ],
      'caption',
    );
    const [small, large] = barsOf(svg);
    expect(small.height).toBeCloseTo(large.height, 5);
  });

  it('escapes text, so a caption cannot break the document', () => {
    const svg = renderChartSvg([{ title: '<a & b>', unit: 'ms', values: {} }], 'x "y" <z>');
    expect(svg).toContain('&lt;a &amp; b&gt; (ms)');
    expect(svg).toContain('aria-label="x &quot;y&quot; &lt;z&gt;"');
    expect(svg).not.toContain('<a &');
  });

  it.each([
    { value: 1446.4, text: '1,446' },
    { value: 21.43, text: '21.4' },
    { value: 1.666, text: '1.67' },
  ])('labels $value as $text', ({ value, text }) => {
    expect(formatFigure(value)).toBe(text);
  });
});
