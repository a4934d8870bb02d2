/** Summary of a sample set: what the report quotes (median and p99 rather than means). */
export interface SampleSummary {
  readonly n: number;
  readonly p50: number;
  readonly p90: number;
  readonly p99: number;
  readonly max: number;
  readonly mean: number;
}

/** Nearest-rank percentile of an ascending array (`fraction` in (0, 1]). */
export function percentile(sorted: readonly number[], fraction: number): number {
  if (sorted.length === 0) return Number.NaN;
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(fraction * sorted.length) - 1))];
}

export function summarize(samples: readonly number[]): SampleSummary {
  const sorted = Float64Array.from(samples).sort();
  let total = 0;
  for (const value of sorted) total += value;
  return {
    n: sorted.length,
    p50: percentile(sorted as unknown as number[], 0.5),
    p90: percentile(sorted as unknown as number[], 0.9),
    p99: percentile(sorted as unknown as number[], 0.99),
    max: sorted.length > 0 ? sorted[sorted.length - 1] : Number.NaN,
    mean: sorted.length > 0 ? total / sorted.length : Number.NaN,
  };
}

/** Median of a few repeated measurements (cold starts, per-run figures). */
export function median(values: readonly number[]): number {
  return percentile(Float64Array.from(values).sort() as unknown as number[], 0.5);
}

export function round(value: number, digits = 2): number {
  const scale = 10 ** digits;
  return Math.round(value * scale) / scale;
}
