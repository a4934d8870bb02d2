import { fuzzMemoryVerdicts } from './fuzz-targets';

describe('fuzzMemoryVerdicts', () => {
  it('meets each target at its bound and misses it just past', () => {
    // Start 140 MB and a fresh heap of 40 MB: the bounds are a 360 MB peak, 200 MB after the idle, a 50 MB heap.
    const metOf = (peakMb: number, idleMb: number, heapEndMb: number) =>
      fuzzMemoryVerdicts({
        startMb: 140,
        peakMb,
        idleMb,
        heapUsedAfterGcMb: { fresh: 40, end: heapEndMb },
      }).map(({ met }) => met);
    expect(metOf(360, 200, 50)).toEqual([true, true, true]);
    expect(metOf(360.1, 200.1, 50.1)).toEqual([false, false, false]);
    expect(metOf(360, 200.1, 50)).toEqual([true, false, true]);
  });

  it('says what was measured, and leaves the heap target out without the forced collections', () => {
    const verdicts = fuzzMemoryVerdicts({ startMb: 131.7, peakMb: 310.5, idleMb: 152.6 });
    expect(verdicts).toEqual([
      { target: 'peak RSS ≤ 360 MB', measured: '310.5 MB', met: true },
      { target: 'RSS after the idle ≤ start + 60 MB', measured: '152.6 MB (start + 20.9 MB)', met: true },
    ]);
  });
});
