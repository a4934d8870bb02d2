/**
 * The hostile fuzz's memory targets (docs/benchmarks.md, "Hostile fuzz"): a peak within 70 % of the chart's
 * 512 Mi limit, the memory back after the idle, and nothing more referenced than in a fresh process.
 */
export const FUZZ_MEMORY_TARGETS = { peakMb: 360, idleOverStartMb: 60, heapOverFreshMb: 10 } as const;

export interface FuzzMemoryFigures {
  readonly startMb: number;
  readonly peakMb: number;
  readonly idleMb: number;
  /** V8 heap used after a forced full GC at start and at the end (FUZZ_FORCE_GC=1 only). */
  readonly heapUsedAfterGcMb?: { readonly fresh: number; readonly end: number };
}

export interface TargetVerdict {
  readonly target: string;
  readonly measured: string;
  readonly met: boolean;
}

/** Pure: each target with what the run measured; the heap's only when both forced collections ran. */
export function fuzzMemoryVerdicts(figures: FuzzMemoryFigures): TargetVerdict[] {
  const mb = (value: number) => `${value.toFixed(1)} MB`;
  const { peakMb, idleOverStartMb, heapOverFreshMb } = FUZZ_MEMORY_TARGETS;
  const idleOver = figures.idleMb - figures.startMb;
  const verdicts: TargetVerdict[] = [
    { target: `peak RSS ≤ ${peakMb} MB`, measured: mb(figures.peakMb), met: figures.peakMb <= peakMb },
    {
      target: `RSS after the idle ≤ start + ${idleOverStartMb} MB`,
      measured: `${mb(figures.idleMb)} (start + ${mb(idleOver)})`,
      met: idleOver <= idleOverStartMb,
    },
  ];
  const heap = figures.heapUsedAfterGcMb;
  if (heap) {
    verdicts.push({
      target: `V8 heap used after a forced GC ≤ a fresh process's + ${heapOverFreshMb} MB`,
      measured: `${mb(heap.end)} (fresh ${mb(heap.fresh)})`,
      met: heap.end - heap.fresh <= heapOverFreshMb,
    });
  }
  return verdicts;
}
