import { fuzzMemoryVerdicts } from './fuzz-targets';

describe('fuzzMemoryVerdicts', () => {
  it('meets each target at its bound and misses it just past', () => {
    const atBounds = fuzzMemoryVerdicts({
      startMb: 140,
      peakMb: 360,
      idleMb: 200,
      heapUsedAfterGcMb: { fresh: 40, end: 50 },
    });
    expect(atBounds.map(({ met }) => met)).toEqual([true, true, true]);
    const past = fuzzMemoryVerdicts({
      startMb: 140,
      peakMb: 360.1,
      idleMb: 200.1,
      heapUsedAfterGcMb: { fresh: 40, end: 50.1 },
    });
    expect(past.map(({ met }) => met)).toEqual([false, false, false]);
  });

  it('says what was measured, and leaves the heap target out without the forced collections', () => {
    const verdicts = fuzzMemoryVerdicts({ startMb: 131.7, peakMb: 310.5, idleMb: 152.6 });
    expect(verdicts).toEqual([
      { target: 'peak RSS ≤ 360 MB', measured: '310.5 MB', met: true },
      { target: 'RSS after the idle ≤ start + 60 MB', measured: '152.6 MB (start + 20.9 MB)', met: true },
    ]);
  });
});
