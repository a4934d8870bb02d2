import { median, percentile, summarize } from './sample-stats';

describe('sample stats', () => {
  it.each([
    { fraction: 0.5, expected: 50 },
    { fraction: 0.99, expected: 99 },
    { fraction: 1, expected: 100 },
    { fraction: 0.001, expected: 1 },
  ])('nearest-rank percentile $fraction of 1..100', ({ fraction, expected }) => {
    const sorted = Array.from({ length: 100 }, (_, index) => index + 1);
    expect(percentile(sorted, fraction)).toBe(expected);
  });

  it('summarize sorts numerically, not as strings', () => {
    expect(summarize([10, 9, 100, 1])).toEqual({ n: 4, p50: 9, p90: 100, p99: 100, max: 100, mean: 30 });
  });

  it('median of an odd count is the middle value', () => {
    expect(median([5, 1, 3])).toBe(3);
  });
});
