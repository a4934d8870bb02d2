import type { ScalePoint } from '../scenarios/scale';
import { formatScaleTable, scaleChartSvg } from './scale-report';

const figures = (p50Ms: number, p99Ms: number) => ({ n: 10, p50Ms, p90Ms: p99Ms, p99Ms, maxMs: p99Ms });

const points: ScalePoint[] = [
  {
    relay: 'file',
    runs: 100,
    opened: 100,
    lost: 0,
    starved: 0,
    idleRssMb: 150,
    peakRssMb: 155,
    perRunKb: 51.2,
    cpuCoreShare: 0.03,
    extraDelay: figures(1.8, 44.5),
    heartbeatLateness: figures(0, 51.1),
    eventLoopDelayP99Ms: 26,
    descriptors: 225,
  },
  { relay: 'file', runs: 10_000, stoppedBy: 'descriptors: 20128 needed, ulimit -n is 20000' },
  { relay: 'original', runs: 100, opened: 100, lost: 0, starved: 0, peakRssMb: 101, descriptors: 19 },
];

describe('scale report', () => {
  it('has one row per point, a stopped point saying what stopped it, unmeasured figures as —', () => {
    const rows = formatScaleTable(points).split('\n').slice(2);
    expect(rows).toEqual([
      '| ours, file store | 100 | 150.0 → 155.0 | 51.2 | 0.03 | 1.8 / 44.5 | 51.1 | 26.0 | 225 | 0 / 0 |',
      '| ours, file store | 10000 | stopped: descriptors: 20128 needed, ulimit -n is 20000 | | | | | | | |',
      '| original 0.16.0 | 100 | — → 101.0 | — | — | — / — | — | — | 19 | 0 / 0 |',
    ]);
  });

  it('draws one line per relay in each panel, stopped points left out', () => {
    const svg = scaleChartSvg(points);
    // 3 panels × 2 relays with a measured point (the stopped point adds none).
    expect(svg.match(/<polyline /g)).toHaveLength(6);
    expect(svg).toContain('ours, file store');
    expect(svg).toContain('original 0.16.0');
    expect(svg).not.toContain('NaN');
  });
});
