import { Inject, Injectable } from '@nestjs/common';
import { THREAD_STORE, type ThreadStore } from './thread-store';
import type { ThreadState } from './thread-state';

interface ActiveRun {
  readonly runId: string;
  cancel?: (executionId: string) => void;
}

/**
 * The in-memory side of thread state (reference §6.5, §6.7): a cache of loaded threads (load on demand,
 * nothing read at start), one async lock per thread so no two requests interleave their read-modify-write,
 * and the active-run slot, which is deliberately not persisted (a restart frees it).
 */
@Injectable()
export class ThreadRegistry {
  private readonly cache = new Map<string, ThreadState>();
  private readonly tails = new Map<string, Promise<unknown>>();
  private readonly activeRuns = new Map<string, ActiveRun>();
  private readonly commitListeners: ((state: ThreadState) => void)[] = [];

  constructor(@Inject(THREAD_STORE) private readonly store: ThreadStore) {}

  /** Runs `work` after every earlier holder of this thread's lock has finished. */
  async withLock<T>(threadId: string, work: () => Promise<T>): Promise<T> {
    const previous = this.tails.get(threadId) ?? Promise.resolve();
    const current = previous.then(work, work);
    const tail = current.catch(() => undefined);
    this.tails.set(threadId, tail);
    try {
      return await current;
    } finally {
      // Drop the entry once nobody queued behind us, so idle threads cost nothing.
      if (this.tails.get(threadId) === tail) this.tails.delete(threadId);
    }
  }

  /** The thread's state from the cache, else from the store; a store failure is not cached (retry reads again). */
  async load(threadId: string): Promise<ThreadState | undefined> {
    const cached = this.cache.get(threadId);
    if (cached) return cached;
    const loaded = await this.store.load(threadId);
    if (loaded) {
      this.cache.set(threadId, loaded);
      for (const listener of this.commitListeners) listener(loaded);
    }
    return loaded;
  }

  /** Writes durably first; the cache only ever holds what is on disk (a failed write changes nothing). */
  async commit(state: ThreadState): Promise<void> {
    await this.store.save(state);
    this.cache.set(state.threadId, state);
    for (const listener of this.commitListeners) listener(state);
  }

  /** Called after every durable write (and after a load), e.g. to arm the interrupt expiry timer. */
  onCommit(listener: (state: ThreadState) => void): void {
    this.commitListeners.push(listener);
  }

  isBusy(threadId: string): boolean {
    return this.activeRuns.has(threadId);
  }

  claim(threadId: string, runId: string): void {
    this.activeRuns.set(threadId, { runId });
  }

  /** The active run registers how to end itself when its execution is cancelled from outside. */
  onCancel(threadId: string, runId: string, cancel: (executionId: string) => void): void {
    const active = this.activeRuns.get(threadId);
    if (active?.runId === runId) active.cancel = cancel;
  }

  /** Ends the thread's active run, if it belongs to that execution (the cancel extension, §7.1). */
  cancelActiveRun(threadId: string, executionId: string): void {
    this.activeRuns.get(threadId)?.cancel?.(executionId);
  }

  release(threadId: string, runId: string): void {
    if (this.activeRuns.get(threadId)?.runId === runId) this.activeRuns.delete(threadId);
  }

  /** Number of runs holding a slot: what AgentCore's /ping reports as busy. */
  get activeRunCount(): number {
    return this.activeRuns.size;
  }
}
