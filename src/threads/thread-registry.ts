import { Inject, Injectable, Optional, type OnApplicationShutdown } from '@nestjs/common';
import { APP_CONFIG, type AppConfig } from '../config/app-config';
import { RunMetrics } from '../metrics/run-metrics';
import { ClusterThreadCoordination } from './cluster-thread-coordination';
import { LocalThreadCoordination } from './local-thread-coordination';
import { THREAD_CLUSTER, type ThreadCluster } from './thread-cluster';
import type { LeaseLostError, RunLease, ThreadCoordination } from './thread-coordination';
import { DEFAULT_THREAD_CACHE_BYTES } from './local-thread-coordination';
import type { ThreadState } from './thread-state';
import { validatedCluster, validatedStore } from './validated-thread-sources';
import { THREAD_STORE, type ThreadStore } from './thread-store';

interface ActiveRun {
  readonly runId: string;
  readonly executionId: string;
  readonly lease: RunLease;
  /** Made only when a cancel waits for this run: settles once it gave the slot (and its lease) back. */
  whenReleased?: Promise<void>;
  markReleased?: () => void;
  cancel?: (executionId: string) => void;
}

/** A run's own writes name it, so that in cluster mode they are fenced by its lease. */
export interface CommitOptions {
  readonly runId?: string;
}

/** Threads kept in memory while idle when no configuration says otherwise (IAC_CODE_AGUI_THREAD_CACHE_SIZE). */
const DEFAULT_THREAD_CACHE_SIZE = 2_000;

/**
 * The in-memory side of thread state (docs/behaviour/state.md#admission, docs/behaviour/state.md#atomic-writes):
 * one async lock per thread so no two requests interleave their read-modify-write, the active-run slot, the
 * commit listeners and the state-write metrics. Where the state lives and how other replicas see it is the
 * coordination's: `LocalThreadCoordination` (the store and a bounded cache) or, with a `ThreadCluster` (the
 * Redis store), `ClusterThreadCoordination` (a Redis mutex, compare-and-set writes, leases, cancel broadcast).
 */
@Injectable()
export class ThreadRegistry implements OnApplicationShutdown {
  private readonly coordination: ThreadCoordination;
  private readonly tails = new Map<string, Promise<unknown>>();
  private readonly activeRuns = new Map<string, ActiveRun>();
  private readonly commitListeners: ((state: ThreadState) => void)[] = [];
  private readonly pendingCounts = new Map<string, number>();
  private pendingTotal = 0;

  constructor(
    @Inject(THREAD_STORE) store: ThreadStore,
    @Optional() @Inject(THREAD_CLUSTER) cluster: ThreadCluster | null = null,
    @Optional() @Inject(RunMetrics) private readonly metrics: RunMetrics | null = null,
    @Optional()
    @Inject(APP_CONFIG)
    config: (Pick<AppConfig, 'threadCacheSize'> & Partial<Pick<AppConfig, 'threadCacheBytes'>>) | null = null,
  ) {
    // Whatever store or cluster it is (a host's included), what it returns is checked first.
    this.coordination = cluster
      ? new ClusterThreadCoordination(validatedCluster(cluster))
      : new LocalThreadCoordination(validatedStore(store), {
          entries: config?.threadCacheSize ?? DEFAULT_THREAD_CACHE_SIZE,
          bytes: config?.threadCacheBytes ?? DEFAULT_THREAD_CACHE_BYTES,
        });
    this.coordination.onCancelPublished((threadId, executionId) =>
      this.cancelLocalRun(threadId, executionId),
    );
  }

  /** Runs `work` after every earlier holder of this thread's lock (on any replica, in cluster mode) has finished. */
  async withLock<T>(threadId: string, work: () => Promise<T>): Promise<T> {
    const locked = () => this.coordination.withLock(threadId, work);
    const previous = this.tails.get(threadId) ?? Promise.resolve();
    const current = previous.then(locked, locked);
    const tail = current.catch(() => undefined);
    this.tails.set(threadId, tail);
    this.coordination.markInUse(threadId);
    try {
      return await current;
    } finally {
      // Drop the entry once nobody queued behind us, so idle threads cost nothing.
      if (this.tails.get(threadId) === tail) {
        this.tails.delete(threadId);
        this.coordination.unlocked(threadId);
        this.markIdleIfUnused(threadId);
      }
    }
  }

  /** The thread's state (a store failure is not cached: a retry reads again). */
  async load(threadId: string): Promise<ThreadState | undefined> {
    const { state, isFresh } = await this.coordination.load(threadId);
    if (state && isFresh) this.notifyCommitted(state);
    return state;
  }

  /**
   * Writes durably first; what is cached is only ever what is durable (a failed write changes nothing). In
   * cluster mode a compare-and-set: ThreadWriteConflictError if another replica wrote since the load, and
   * STATE_PERSISTENCE_FAILED for a run's write (`runId`) once that run has lost its lease.
   */
  async commit(state: ThreadState, options: CommitOptions = {}): Promise<void> {
    const fence = options.runId === undefined ? undefined : this.leaseOf(state.threadId, options.runId);
    await this.timed(() => this.coordination.commit(state, fence));
    this.notifyCommitted(state);
  }

  /**
   * Admission's write (docs/behaviour/state.md#admission step 9) and the active-run slot, as one step:
   * THREAD_BUSY if another replica holds the slot, ThreadWriteConflictError if the document moved.
   */
  async commitAndClaim(state: ThreadState, runId: string): Promise<void> {
    const lease = await this.timed(() => this.coordination.claim(state, runId));
    this.notifyCommitted(state);
    const { executionId } = state.execution;
    this.activeRuns.set(state.threadId, { runId, executionId, lease });
    this.coordination.markInUse(state.threadId);
  }

  /** Called after every durable write (and after a load), e.g. to arm the interrupt expiry timer. */
  onCommit(listener: (state: ThreadState) => void): void {
    this.commitListeners.push(listener);
  }

  /**
   * Whether a run holds the thread's slot. In cluster mode this includes a lease held by another replica as
   * the last `load` under the lock saw it — call it after `load`, inside `withLock`.
   */
  isBusy(threadId: string): boolean {
    return this.activeRuns.has(threadId) || this.coordination.isLeasedElsewhere(threadId);
  }

  /** The active run registers how to end itself when its execution is cancelled from outside. */
  onCancel(threadId: string, runId: string, cancel: (executionId: string) => void): void {
    const active = this.activeRuns.get(threadId);
    if (active?.runId === runId) active.cancel = cancel;
  }

  /**
   * Ends the thread's active run, if it belongs to that execution (the cancel extension,
   * docs/behaviour/cancel.md#cancel-route), on any replica. Resolves once that run has given the slot back, so
   * the thread takes the next run: a run here, when it released it; a run on another replica (cluster mode),
   * when the lease the last `load` saw is gone. Resolves at once when no run of it holds the slot, and when
   * `bound` aborts; never rejects. Call it under the lock after `load`, and wait for it only once the lock is
   * let go: the run's last write takes that lock.
   */
  cancelActiveRun(threadId: string, executionId: string, bound: AbortSignal): Promise<void> {
    const local = this.activeRuns.get(threadId);
    // A run that registered no cancel yet does not hear this one: nothing to wait for.
    const endsHere = local?.executionId === executionId && local.cancel !== undefined;
    const isElsewhere = local === undefined && this.coordination.isLeasedElsewhere(threadId);
    this.cancelLocalRun(threadId, executionId);
    // eslint-disable-next-line @typescript-eslint/no-floating-promises -- the local run is already cancelled; the broadcast to other replicas logs its own failure (never rejects)
    void this.coordination.publishCancel(threadId, executionId);
    if (endsHere) {
      local.whenReleased ??= new Promise<void>((resolve) => (local.markReleased = resolve));
      return untilAborted(local.whenReleased, bound);
    }
    if (isElsewhere) return this.coordination.whenLeaseFreed(threadId, bound);
    return Promise.resolve();
  }

  /**
   * Resolves while the run may act on the kernel (send an answer, CancelTask); LeaseLostError once another
   * replica may hold the thread, STATE_UNAVAILABLE when that cannot be told (docs/behaviour/state.md#the-run-lease).
   */
  ensureLease(threadId: string, runId: string): Promise<void> {
    return this.coordination.ensureLease(this.leaseOf(threadId, runId));
  }

  /** The run hears once that its lease was found lost (renewal, fenced write or lease check). */
  onLeaseLost(threadId: string, runId: string, listener: (lost: LeaseLostError) => void): void {
    this.coordination.onLeaseLost(this.leaseOf(threadId, runId), listener);
  }

  /** Frees the slot (in cluster mode the lease too, if it is still this run's). Never rejects. */
  async release(threadId: string, runId: string): Promise<void> {
    const active = this.activeRuns.get(threadId);
    if (active?.runId !== runId) return;
    this.activeRuns.delete(threadId);
    this.markIdleIfUnused(threadId);
    await this.coordination.release(threadId, active.lease);
    active.markReleased?.();
  }

  /** Number of runs holding a slot on this replica: what AgentCore's /ping reports as busy. */
  get activeRunCount(): number {
    return this.activeRuns.size;
  }

  onApplicationShutdown(): void {
    this.coordination.shutdown();
  }

  /** State-write latency. */
  private async timed<T>(write: () => Promise<T>): Promise<T> {
    const started = performance.now();
    try {
      return await write();
    } finally {
      this.metrics?.observeStateWrite((performance.now() - started) / 1000);
    }
  }

  /** The pending interrupts of the threads this replica has seen. */
  private countPending(state: ThreadState): void {
    if (!this.metrics) return;
    const count = Object.keys(state.execution.pending).length;
    this.pendingTotal += count - (this.pendingCounts.get(state.threadId) ?? 0);
    if (count === 0) this.pendingCounts.delete(state.threadId);
    else this.pendingCounts.set(state.threadId, count);
    this.metrics.setPendingInterrupts(this.pendingTotal);
  }

  /** A thread is in use while its lock is held or queued for, or a run holds its slot. */
  private markIdleIfUnused(threadId: string): void {
    if (this.tails.has(threadId) || this.activeRuns.has(threadId)) return;
    this.coordination.markIdle(threadId);
  }

  /** A run's own write is fenced by its lease; one that no longer holds the slot is fenced by none. */
  private leaseOf(threadId: string, runId: string): RunLease {
    const active = this.activeRuns.get(threadId);
    return active?.runId === runId ? active.lease : {};
  }

  private cancelLocalRun(threadId: string, executionId: string): void {
    this.activeRuns.get(threadId)?.cancel?.(executionId);
  }

  private notifyCommitted(state: ThreadState): void {
    this.countPending(state);
    for (const listener of this.commitListeners) listener(state);
  }
}

/** `work`, or `bound`'s abort if that comes first; never rejects. */
function untilAborted(work: Promise<void>, bound: AbortSignal): Promise<void> {
  if (bound.aborted) return Promise.resolve();
  return new Promise<void>((resolve) => {
    const done = () => {
      bound.removeEventListener('abort', done);
      resolve();
    };
    bound.addEventListener('abort', done, { once: true });
    work.then(done, done);
  });
}
