import { AsyncLocalStorage } from 'node:async_hooks';
import { getHeapStatistics } from 'node:v8';
import { Logger, type OnModuleDestroy } from '@nestjs/common';

/** What the reclaimer needs of the process: the heap's size, how busy it is, and a collection that gives memory back. */
export interface HeapControl {
  /** Bytes of the JavaScript heap in use (garbage not yet collected included). */
  usedBytes(): number;
  /** Bytes the JavaScript heap holds from the system: what is in use and the free pages V8 keeps for later. */
  committedBytes(): number;
  /** Share (0–1) of the time since the previous call that the event loop was busy. */
  loopUtilization(): number;
  /**
   * A full garbage collection. `shrink` also compacts the heap and gives its free pages back to the system
   * (slower); without it V8 keeps them for the next allocations.
   */
  collect(shrink: boolean): void;
}

export interface MemoryReclaimerOptions {
  /** How often the reclaimer looks for a quiet process (10 s; docs/behaviour/bounds.md#memory-reclaimer). */
  readonly intervalMs: number;
  /** Body bytes given back to the budget after which the garbage they left is collected at once. */
  readonly pressureBytes: number;
}

/** Memory the heap may hold over what the last quiet collection left it holding before a quiet process shrinks it. */
const IDLE_SLACK_BYTES = 16 * 1024 * 1024;
/** Below this share of busy event loop, a process is quiet: idle, or holding open runs that send little. */
const QUIET_LOOP_UTILIZATION = 0.02;
/** Two collections are at least this far apart, whatever the bodies do: the pause is bounded in rate. */
const MIN_GAP_MS = 1000;

/**
 * Gives back the memory that request bodies leave behind (docs/behaviour/bounds.md#memory-reclaimer). V8 collects
 * the old generation only when its own heuristics decide, which lets the text and parsed copies of large bodies
 * pile up as garbage until well past the container's limit, and it keeps the pages a burst made it take (its
 * garbage too) while the process idles. So the process collects:
 * - under pressure: once the bodies given back to the budget since the last collection reach `pressureBytes`
 *   (at most once a second), keeping the pages for the bodies still coming;
 * - when quiet: at a tick with no body given back since the previous one and an event loop busy less than 2 % of
 *   the time, after a burst that needed a pressure collection or when the heap holds 16 MiB more than the last
 *   quiet collection left it holding — and then it also gives the free pages back (a process streaming runs is
 *   not quiet: V8 collects for it as usual).
 */
export class MemoryReclaimer implements OnModuleDestroy {
  private readonly logger = new Logger(MemoryReclaimer.name);
  private releasedSinceCollection = 0;
  private releasedAtLastTick = 0;
  /** What the heap held from the system after the last quiet collection (or at start). */
  private committedAfterShrink: number;
  /** A pressure collection ran since the last quiet one: a burst's pages are still held. */
  private pressureSinceShrink = false;
  private lastCollectionAtMs = Number.NEGATIVE_INFINITY;
  private pending?: NodeJS.Timeout;
  private readonly ticker: NodeJS.Timeout;
  /** Runs a function in the context the reclaimer was made in: a collection belongs to no request. */
  private readonly inOwnContext = AsyncLocalStorage.snapshot();

  constructor(
    private readonly heap: HeapControl,
    private readonly options: MemoryReclaimerOptions,
    private readonly nowMs: () => number = () => performance.now(),
  ) {
    this.committedAfterShrink = heap.committedBytes();
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
    // Committed memory counts both a heap grown with garbage and the free pages an earlier burst left.
    const holdsMore =
      this.pressureSinceShrink || this.heap.committedBytes() >= this.committedAfterShrink + IDLE_SLACK_BYTES;
    // The tick is a task of its own: collecting here pauses no request.
    if (isQuiet && holdsMore && !this.pending) this.collect('idle');
  }

  /** A collection as its own task, never inside the request that gave a body back. */
  private schedule(reason: 'pressure'): void {
    if (this.pending) return;
    const waitMs = Math.max(0, this.lastCollectionAtMs + MIN_GAP_MS - this.nowMs());
    // Scheduled from a request's body release, but its log line must not carry that request's id.
    this.pending = this.inOwnContext(() =>
      setTimeout(() => {
        this.pending = undefined;
        this.collect(reason);
      }, waitMs).unref(),
    );
  }

  private collect(reason: 'pressure' | 'idle'): void {
    const before = { used: this.heap.usedBytes(), committed: this.heap.committedBytes() };
    const startedMs = this.nowMs();
    const shrink = reason === 'idle';
    this.heap.collect(shrink);
    this.lastCollectionAtMs = this.nowMs();
    const committedAfter = this.heap.committedBytes();
    if (shrink) this.committedAfterShrink = committedAfter;
    this.pressureSinceShrink = !shrink;
    this.releasedSinceCollection = 0;
    this.releasedAtLastTick = 0;
    const mb = (bytes: number) => Math.round(bytes / 2 ** 20);
    this.logger.debug({
      msg: 'memory reclaimed',
      reason,
      heapUsedMbBefore: mb(before.used),
      heapUsedMbAfter: mb(this.heap.usedBytes()),
      heapCommittedMbBefore: mb(before.committed),
      heapCommittedMbAfter: mb(committedAfter),
      pauseMs: Math.round(this.lastCollectionAtMs - startedMs),
    });
  }
}

/** V8's `gc` options: a full collection, now; `last-resort` is the one that compacts and frees pages. */
type GcOptions = { type: 'major'; execution: 'sync'; flavor: 'regular' | 'last-resort' };

/**
 * This process's heap: V8's statistics, and a full collection through the `gc` that `node --expose-gc` puts on
 * the global; without that flag on the command line there is none (undefined). The flag is never turned on at run
 * time: V8 documents changing flags after start as unsafe.
 */
export function processHeapControl(
  collectGarbage: unknown = (globalThis as { gc?: unknown }).gc,
): HeapControl | undefined {
  if (typeof collectGarbage !== 'function') return undefined;
  const gc = collectGarbage as (options: GcOptions) => void;
  let lastLook = performance.eventLoopUtilization();
  return {
    usedBytes: () => getHeapStatistics().used_heap_size,
    committedBytes: () => getHeapStatistics().total_heap_size,
    loopUtilization: () => {
      const now = performance.eventLoopUtilization();
      const { utilization } = performance.eventLoopUtilization(now, lastLook);
      lastLook = now;
      return utilization;
    },
    collect: (shrink) => gc({ type: 'major', execution: 'sync', flavor: shrink ? 'last-resort' : 'regular' }),
  };
}
