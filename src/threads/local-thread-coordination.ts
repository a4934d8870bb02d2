import { LRUCache } from 'lru-cache';
import type { CoordinatedLoad, RunLease, ThreadCoordination } from './thread-coordination';
import type { ThreadState } from './thread-state';
import type { ThreadStore } from './thread-store';

/**
 * Idle threads' total size when no configuration says otherwise (IAC_CODE_AGUI_THREAD_CACHE_BYTES): 32 MiB,
 * a small share of the chart's 512 Mi container limit, and some thousands of typical threads.
 */
export const DEFAULT_THREAD_CACHE_BYTES = 32 * 1024 * 1024;

/** The cache's two bounds (docs/behaviour/bounds.md). */
export interface ThreadCacheBounds {
  readonly entries: number;
  readonly bytes: number;
}

/**
 * What an idle thread counts against the byte bound: its JSON length, which tracks what its strings and
 * records hold. Computed once, when the thread enters the idle cache.
 */
function cachedSizeOf(state: ThreadState): number {
  return JSON.stringify(state).length;
}

/**
 * One replica over its store (files, or a host's store): the run slot is in memory only (deliberately not
 * persisted) and loaded threads are cached, loaded on demand, nothing read at start.
 *
 * The cache is bounded: a thread in use is kept apart and never evicted; an idle thread sits in an LRU of
 * IAC_CODE_AGUI_THREAD_CACHE_SIZE entries and IAC_CODE_AGUI_THREAD_CACHE_BYTES (a thread larger than that is
 * not kept at all) and, once evicted, is read from the store again on its next load.
 * Evicting is always safe because the cache only ever holds what is already durable (`commit` writes first). A
 * pending interrupt does not keep a thread in memory: its expiry timer holds the id only.
 */
export class LocalThreadCoordination implements ThreadCoordination {
  /** Idle threads, least recently used first out. */
  private readonly idle: LRUCache<string, ThreadState>;
  /** Threads in use, moved back to `idle` when their last holder is done. */
  private readonly inUse = new Map<string, ThreadState | undefined>();

  constructor(
    private readonly store: ThreadStore,
    bounds: ThreadCacheBounds,
  ) {
    this.idle = new LRUCache({ max: bounds.entries, maxSize: bounds.bytes, sizeCalculation: cachedSizeOf });
  }

  withLock<T>(_threadId: string, work: () => Promise<T>): Promise<T> {
    return work();
  }

  async load(threadId: string): Promise<CoordinatedLoad> {
    const cached = this.inUse.get(threadId) ?? this.idle.get(threadId);
    if (cached) return { state: cached, isFresh: false };
    // A store failure is not cached: a retry reads again.
    const state = await this.store.load(threadId);
    if (state) this.remember(state);
    return { state, isFresh: state !== undefined };
  }

  async commit(state: ThreadState): Promise<void> {
    await this.store.save(state);
    this.remember(state);
  }

  async claim(state: ThreadState): Promise<RunLease> {
    await this.commit(state);
    return {};
  }

  isLeasedElsewhere(): boolean {
    return false;
  }

  /** One replica: the slot is in memory and cannot be taken by anyone else. */
  async ensureLease(): Promise<void> {}

  onLeaseLost(): void {}

  async whenLeaseFreed(): Promise<void> {}

  async release(): Promise<void> {}

  async publishCancel(): Promise<void> {}

  onCancelPublished(): void {}

  markInUse(threadId: string): void {
    if (this.inUse.has(threadId)) return;
    const state = this.idle.get(threadId);
    this.idle.delete(threadId);
    this.inUse.set(threadId, state);
  }

  markIdle(threadId: string): void {
    if (!this.inUse.has(threadId)) return;
    const state = this.inUse.get(threadId);
    this.inUse.delete(threadId);
    if (state !== undefined) this.idle.set(threadId, state);
  }

  unlocked(): void {}

  shutdown(): void {}

  private remember(state: ThreadState): void {
    if (this.inUse.has(state.threadId)) this.inUse.set(state.threadId, state);
    else this.idle.set(state.threadId, state);
  }
}
