import { areaOf, summarizeCpuProfile, type CpuProfile } from './summarize-cpu-profile';

const frame = (functionName: string, url = '', lineNumber = 0) => ({ functionName, url, lineNumber });

// (root) → handler (dist/runs) → parse (node_modules/@a2a-js/sdk); plus (idle) and (garbage collector).
const profile: CpuProfile = {
  startTime: 1000,
  nodes: [
    { id: 1, callFrame: frame('(root)'), children: [2, 4, 5] },
    { id: 2, callFrame: frame('handle', 'file:///app/dist/runs/sse-writer.js', 9), children: [3] },
    { id: 3, callFrame: frame('parse', 'file:///app/node_modules/@a2a-js/sdk/dist/index.cjs', 99) },
    { id: 4, callFrame: frame('(idle)') },
    { id: 5, callFrame: frame('(garbage collector)') },
  ],
  samples: [2, 3, 3, 4, 5, 3],
  timeDeltas: [100, 200, 200, 500, 100, 400],
};

describe('summarizeCpuProfile', () => {
  it('adds self time by area and function, idle excluded', () => {
    const summary = summarizeCpuProfile(profile);
    expect(summary.totalMs).toBe(1);
    expect(summary.selfByArea.map(({ name, ms }) => [name, ms])).toEqual([
      ['@a2a-js/sdk', 0.8],
      ['gateway runs/', 0.1],
      ['(garbage collector)', 0.1],
    ]);
    expect(summary.selfByFunction[0]).toEqual({ name: 'parse index.cjs:100', ms: 0.8, percent: 80 });
  });

  it('counts a caller inclusive of its callees', () => {
    const inclusive = summarizeCpuProfile(profile).inclusiveByFunction;
    expect(inclusive.find((line) => line.name === 'handle sse-writer.js:10')?.ms).toBe(0.9);
  });

  it('keeps only the samples inside the window', () => {
    // Sample times: 1100, 1300, 1500, 2000 (idle), 2100, 2500.
    const summary = summarizeCpuProfile(profile, 25, { fromUs: 1250, toUs: 2100 });
    expect(summary.selfByArea.map(({ name, ms }) => [name, ms])).toEqual([
      ['@a2a-js/sdk', 0.4],
      ['(garbage collector)', 0.1],
    ]);
  });
});

describe('areaOf', () => {
  it.each([
    { url: 'file:///x/node_modules/rxjs/dist/cjs/a.js', area: 'rxjs' },
    { url: 'file:///x/node_modules/@ag-ui/encoder/dist/index.js', area: '@ag-ui/encoder' },
    { url: 'node:internal/streams/writable', area: 'node:internal' },
    { url: 'node:net', area: 'node:net' },
    { url: 'file:///srv/gateway-build/dist/events/unwrap-frame.js', area: 'gateway events/' },
    { url: '', area: '(native)' },
  ])('$url → $area', ({ url, area }) => {
    expect(areaOf(url, 'f')).toBe(area);
  });
});
