/** The lines bench child processes print on stdout once they listen (kept apart: importing starts nothing). */
export const UPSTREAM_READY = 'BENCH_UPSTREAM_READY';
export const PROXY_READY = 'BENCH_PROXY_READY';
/** The bench upstream's counters route (not part of the kernel's wire). */
export const UPSTREAM_STATS_PATH = '/__bench/stats';

export interface UpstreamStats {
  /** SendStreamingMessage requests answered with a stream. */
  readonly streams: number;
  /** Streams still open. */
  readonly openStreams: number;
  readonly cancels: number;
}
