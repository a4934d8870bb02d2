import { getHeapStatistics, setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { Logger, type OnModuleDestroy } from '@nestjs/common';

/** What the reclaimer needs of the process: the heap's size, how busy it is, and a collection that gives memory back. */
export interface HeapControl {
  /** Bytes of the JavaScript heap in use (garbage not yet collected included). */
  usedBytes(): number;
  /** Share (0–1) of the time since the previous call that the event loop was busy. */
  loopUtilization(): number;
  /** A full garbage collection (what the allocator then does with the freed memory is its own). */
  collect(): void;
}

export interface MemoryReclaimerOptions {
  /** How often the reclaimer looks for a quiet process (IAC_CODE_AGUI_MEMORY_RECLAIM_SECONDS). */
  readonly intervalMs: number;
  /** Body bytes given back to the budget after which the garbage they left is collected at once. */
  readonly pressureBytes: number;
}

/** Heap growth over what the last collection left that a quiet process gets back. */
const IDLE_SLACK_BYTES = 16 * 1024 * 1024;
/** Below this share of busy event loop, a process is quiet: idle, or holding open runs that send little. */
const QUIET_LOOP_UTILIZATION = 0.02;
/** Two collections are at least this far apart, whatever the bodies do: the pause is bounded in rate. */
const MIN_GAP_MS = 1000;

/**
 * Gives back the memory that request bodies leave behind (docs/behaviour/bounds.md#memory-reclaimer). V8 collects
 * the old generation only when its own heuristics decide, which lets the text and parsed copies of large bodies
 * pile up as garbage until well past the container's limit, and it leaves that garbage in place while the
 * process idles. So the process collects:
 * - under pressure: once the bodies given back to the budget since the last collection reach `pressureBytes`
 *   (at most once a second);
 * - when quiet: at a tick with no body given back since the previous one and an event loop busy less than 2 % of
 *   the time, when the heap has grown 16 MiB over what the last collection left (a process streaming runs is
 *   not quiet: V8 collects for it as usual).
 */
export class MemoryReclaimer implements OnModuleDestroy {
  private readonly logger = new Logger(MemoryReclaimer.name);
  private releasedSinceCollection = 0;
  private releasedAtLastTick = 0;
  private usedAfterCollection: number;
  private lastCollectionAtMs = Number.NEGATIVE_INFINITY;
  private pending?: NodeJS.Timeout;
  private readonly ticker: NodeJS.Timeout;

  constructor(
    private readonly heap: HeapControl,
    private readonly options: MemoryReclaimerOptions,
    private readonly nowMs: () => number = () => performance.now(),
  ) {
    this.usedAfterCollection = heap.usedBytes();
    this.ticker = setInterval(() => this.tick(), options.intervalMs).unref();
  }

  /** A body's charge went back to the budget: its text and parsed value are garbage now. */
  noteBodyReleased(bytes: number): void {
    this.releasedSinceCollection += bytes;
    if (this.releasedSinceCollection >= this.options.pressureBytes) this.schedule('pressure');
  }

  onModuleDestroy(): void {
    this.stop();
  }

  stop(): void {
    clearInterval(this.ticker);
    clearTimeout(this.pending);
    this.pending = undefined;
  }

  private tick(): void {
    // Read at every tick, so that each reading covers exactly one interval.
    const loopUtilization = this.heap.loopUtilization();
    const isQuiet =
      this.releasedSinceCollection === this.releasedAtLastTick && loopUtilization < QUIET_LOOP_UTILIZATION;
    this.releasedAtLastTick = this.releasedSinceCollection;
    const hasGrown = this.heap.usedBytes() >= this.usedAfterCollection + IDLE_SLACK_BYTES;
    // The tick is a task of its own: collecting here pauses no request.
    if (isQuiet && hasGrown && !this.pending) this.collect('idle');
  }

  /** A collection as its own task, never inside the request that gave a body back. */
  private schedule(reason: 'pressure'): void {
    if (this.pending) return;
    const waitMs = Math.max(0, this.lastCollectionAtMs + MIN_GAP_MS - this.nowMs());
    this.pending = setTimeout(() => {
      this.pending = undefined;
      this.collect(reason);
    }, waitMs).unref();
  }

  private collect(reason: 'pressure' | 'idle'): void {
    const before = this.heap.usedBytes();
    const startedMs = this.nowMs();
    this.heap.collect();
    this.lastCollectionAtMs = this.nowMs();
    this.usedAfterCollection = this.heap.usedBytes();
    this.releasedSinceCollection = 0;
    this.releasedAtLastTick = 0;
    this.logger.debug({
      msg: 'memory reclaimed',
      reason,
      heapUsedMbBefore: Math.round(before / 2 ** 20),
      heapUsedMbAfter: Math.round(this.usedAfterCollection / 2 ** 20),
      pauseMs: Math.round(this.lastCollectionAtMs - startedMs),
    });
  }
}

/**
 * This process's heap: V8's statistics, and a full collection through V8's own `gc` (exposed for this one
 * function, not to the host's code: a new context gets it, the global does not).
 */
export function processHeapControl(): HeapControl {
  const collectGarbage = exposedGc();
  let lastLook = performance.eventLoopUtilization();
  return {
    usedBytes: () => getHeapStatistics().used_heap_size,
    loopUtilization: () => {
      const now = performance.eventLoopUtilization();
      const { utilization } = performance.eventLoopUtilization(now, lastLook);
      lastLook = now;
      return utilization;
    },
    collect: () => collectGarbage(),
  };
}

function exposedGc(): () => void {
  const global = (globalThis as { gc?: unknown }).gc;
  if (typeof global === 'function') return global as () => void;
  setFlagsFromString('--expose-gc');
  try {
    return runInNewContext('gc') as () => void;
  } finally {
    setFlagsFromString('--no-expose-gc');
  }
}
