import { Inject, Injectable, Logger, Optional, type OnApplicationShutdown } from '@nestjs/common';
import { LRUCache } from 'lru-cache';
import { AguiError } from '../common/agui-error';
import { ErrorCode } from '../common/error-code';
import { APP_CONFIG, type AppConfig } from '../config/app-config';
import {
  THREAD_CLUSTER,
  ThreadWriteConflictError,
  type ThreadCluster,
  type ThreadWriteOutcome,
} from './thread-cluster';
import { THREAD_STORE, type ThreadStore } from './thread-store';
import { RunMetrics } from '../metrics/run-metrics';
import type { ThreadState } from './thread-state';

interface ActiveRun {
  readonly runId: string;
  cancel?: (executionId: string) => void;
  /** Cluster mode: the fencing token of this run's lease, and the timer that renews it. */
  readonly leaseToken?: string;
  readonly renewal?: NodeJS.Timeout;
}

/** A run's own writes name it, so that in cluster mode they are fenced by its lease. */
export interface CommitOptions {
  readonly runId?: string;
}

/** Threads kept in memory while idle when no configuration says otherwise (IAC_CODE_AGUI_THREAD_CACHE_SIZE). */
const DEFAULT_THREAD_CACHE_SIZE = 10_000;

/**
 * The in-memory side of thread state (docs/behaviour/state.md#admission, docs/behaviour/state.md#atomic-writes): one async lock per thread so no two requests
 * interleave their read-modify-write, the active-run slot, and — with the file store — a cache of loaded
 * threads (load on demand, nothing read at start) and a slot that is deliberately not persisted.
 *
 * The cache is bounded: a thread in use (its lock held or queued for, or a run holding its slot) is kept
 * apart and never evicted; an idle thread sits in an LRU of IAC_CODE_AGUI_THREAD_CACHE_SIZE entries and,
 * once evicted, is read from the store again on its next load. Evicting is always safe because the cache
 * only ever holds what is already durable (`commit` writes first). A pending interrupt does not keep a
 * thread in memory: its expiry timer holds the id only and loads the thread when it fires.
 *
 * With a `ThreadCluster` (the Redis store, docs/architecture.md#decisions) the same API holds across replicas: the lock
 * also takes a Redis mutex, `load` always reads Redis (no cache: another replica may have written), `commit`
 * is a compare-and-set against the version that load saw, the slot is a lease with a TTL renewed while the
 * run streams, and a cancel is broadcast to the replica streaming the run.
 */
@Injectable()
export class ThreadRegistry implements OnApplicationShutdown {
  private readonly logger = new Logger(ThreadRegistry.name);
  /** Idle threads, least recently used first out. */
  private readonly idle: LRUCache<string, ThreadState>;
  /** Threads in use (`isInUse`), moved back to `idle` when their last holder is done. */
  private readonly inUse = new Map<string, ThreadState>();
  private readonly tails = new Map<string, Promise<unknown>>();
  private readonly activeRuns = new Map<string, ActiveRun>();
  private readonly commitListeners: ((state: ThreadState) => void)[] = [];
  private readonly pendingCounts = new Map<string, number>();
  private pendingTotal = 0;
  /** Cluster mode, per thread while someone holds its lock: the version and lease the last load saw. */
  private readonly seenVersions = new Map<string, number>();
  private readonly seenLeased = new Set<string>();

  constructor(
    @Inject(THREAD_STORE) private readonly store: ThreadStore,
    @Optional() @Inject(THREAD_CLUSTER) private readonly cluster: ThreadCluster | null = null,
    @Optional() @Inject(RunMetrics) private readonly metrics: RunMetrics | null = null,
    @Optional() @Inject(APP_CONFIG) config: Pick<AppConfig, 'threadCacheSize'> | null = null,
  ) {
    this.idle = new LRUCache({ max: config?.threadCacheSize ?? DEFAULT_THREAD_CACHE_SIZE });
    this.cluster?.onCancelPublished((threadId, executionId) => this.cancelLocalRun(threadId, executionId));
  }

  /** Runs `work` after every earlier holder of this thread's lock (on any replica, in cluster mode) has finished. */
  async withLock<T>(threadId: string, work: () => Promise<T>): Promise<T> {
    const locked = this.cluster ? () => this.withClusterLock(this.cluster!, threadId, work) : work;
    const previous = this.tails.get(threadId) ?? Promise.resolve();
    const current = previous.then(locked, locked);
    const tail = current.catch(() => undefined);
    this.tails.set(threadId, tail);
    this.pin(threadId);
    try {
      return await current;
    } finally {
      // Drop the entry once nobody queued behind us, so idle threads cost nothing.
      if (this.tails.get(threadId) === tail) {
        this.tails.delete(threadId);
        this.seenVersions.delete(threadId);
        this.seenLeased.delete(threadId);
        this.unpinIfIdle(threadId);
      }
    }
  }

  /**
   * The thread's state: from the cache, else the store (file mode); always from Redis in cluster mode. A
   * store failure is not cached (retry reads again).
   */
  async load(threadId: string): Promise<ThreadState | undefined> {
    if (this.cluster) return this.loadFromCluster(this.cluster, threadId);
    const cached = this.inUse.get(threadId) ?? this.idle.get(threadId);
    if (cached) return cached;
    const loaded = await this.store.load(threadId);
    if (loaded) {
      this.remember(loaded);
      this.notifyCommitted(loaded);
    }
    return loaded;
  }

  /**
   * Writes durably first; the cache only ever holds what is on disk (a failed write changes nothing). In
   * cluster mode a compare-and-set: ThreadWriteConflictError if another replica wrote since the load, and
   * STATE_PERSISTENCE_FAILED for a run's write (`runId`) once that run has lost its lease.
   */
  async commit(state: ThreadState, options: CommitOptions = {}): Promise<void> {
    return this.timed(() => this.commitUntimed(state, options));
  }

  private async commitUntimed(state: ThreadState, options: CommitOptions): Promise<void> {
    if (!this.cluster) {
      await this.store.save(state);
      this.remember(state);
      this.notifyCommitted(state);
      return;
    }
    const fenceToken =
      options.runId === undefined ? undefined : (this.leaseTokenOf(state.threadId, options.runId) ?? '');
    const outcome = await this.cluster.write(
      state,
      this.seenVersions.get(state.threadId) ?? 0,
      fenceToken === undefined ? {} : { fenceToken },
    );
    this.afterClusterWrite(state, outcome);
  }

  /**
   * Admission's write (docs/behaviour/state.md#admission step 9) and the active-run slot, as one step. In cluster mode one
   * atomic compare-and-set that also claims the lease: THREAD_BUSY if another replica holds it,
   * ThreadWriteConflictError if the document moved.
   */
  async commitAndClaim(state: ThreadState, runId: string): Promise<void> {
    if (!this.cluster) {
      await this.commit(state);
      this.activeRuns.set(state.threadId, { runId });
      return;
    }
    const cluster = this.cluster;
    return this.timed(() => this.commitAndClaimInCluster(cluster, state, runId));
  }

  private async commitAndClaimInCluster(
    cluster: ThreadCluster,
    state: ThreadState,
    runId: string,
  ): Promise<void> {
    const outcome = await cluster.write(state, this.seenVersions.get(state.threadId) ?? 0, {
      claimForRun: runId,
    });
    if (outcome.kind === 'busy') throw new AguiError(ErrorCode.THREAD_BUSY, 'threadBusy');
    this.afterClusterWrite(state, outcome);
    const leaseToken = outcome.kind === 'written' ? outcome.leaseToken : undefined;
    this.activeRuns.set(state.threadId, {
      runId,
      ...(leaseToken ? { leaseToken, renewal: this.renewLease(cluster, state.threadId, leaseToken) } : {}),
    });
  }

  /** Called after every durable write (and after a load), e.g. to arm the interrupt expiry timer. */
  /** State-write latency , and the pending interrupts of the threads this replica has seen. */
  private async timed(write: () => Promise<void>): Promise<void> {
    const started = performance.now();
    try {
      await write();
    } finally {
      this.metrics?.observeStateWrite((performance.now() - started) / 1000);
    }
  }

  private countPending(state: ThreadState): void {
    if (!this.metrics) return;
    const count = Object.keys(state.execution.pending).length;
    this.pendingTotal += count - (this.pendingCounts.get(state.threadId) ?? 0);
    if (count === 0) this.pendingCounts.delete(state.threadId);
    else this.pendingCounts.set(state.threadId, count);
    this.metrics.setPendingInterrupts(this.pendingTotal);
  }

  onCommit(listener: (state: ThreadState) => void): void {
    this.commitListeners.push(listener);
  }

  /**
   * Whether a run holds the thread's slot. In cluster mode this includes a lease held by another replica as
   * the last `load` under the lock saw it — call it after `load`, inside `withLock`.
   */
  isBusy(threadId: string): boolean {
    return this.activeRuns.has(threadId) || this.seenLeased.has(threadId);
  }

  /** The active run registers how to end itself when its execution is cancelled from outside. */
  onCancel(threadId: string, runId: string, cancel: (executionId: string) => void): void {
    const active = this.activeRuns.get(threadId);
    if (active?.runId === runId) active.cancel = cancel;
  }

  /** Ends the thread's active run, if it belongs to that execution (the cancel extension, docs/behaviour/cancel.md#cancel-route), on any replica. */
  cancelActiveRun(threadId: string, executionId: string): void {
    this.cancelLocalRun(threadId, executionId);
    this.cluster?.publishCancel(threadId, executionId).catch((error: unknown) =>
      this.logger.warn({
        msg: 'broadcasting a cancel failed',
        threadId,
        executionId,
        error: String(error),
      }),
    );
  }

  /** Frees the slot; in cluster mode deletes the lease if it is still this run's. Never rejects. */
  async release(threadId: string, runId: string): Promise<void> {
    const active = this.activeRuns.get(threadId);
    if (active?.runId !== runId) return;
    this.activeRuns.delete(threadId);
    this.unpinIfIdle(threadId);
    clearInterval(active.renewal);
    if (!this.cluster || !active.leaseToken) return;
    await this.cluster.releaseLease(threadId, active.leaseToken).catch((error: unknown) =>
      // The lease then expires on its own after its TTL.
      this.logger.warn({ msg: 'releasing a run lease failed', threadId, runId, error: String(error) }),
    );
  }

  /** Number of runs holding a slot on this replica: what AgentCore's /ping reports as busy. */
  get activeRunCount(): number {
    return this.activeRuns.size;
  }

  onApplicationShutdown(): void {
    for (const active of this.activeRuns.values()) clearInterval(active.renewal);
  }

  private isInUse(threadId: string): boolean {
    return this.tails.has(threadId) || this.activeRuns.has(threadId);
  }

  /** File mode: the cached state of a thread in use, never a candidate for eviction. */
  private remember(state: ThreadState): void {
    if (!this.isInUse(state.threadId)) {
      this.idle.set(state.threadId, state);
      return;
    }
    this.idle.delete(state.threadId);
    this.inUse.set(state.threadId, state);
  }

  private pin(threadId: string): void {
    const state = this.idle.get(threadId);
    if (state === undefined) return;
    this.idle.delete(threadId);
    this.inUse.set(threadId, state);
  }

  private unpinIfIdle(threadId: string): void {
    if (this.isInUse(threadId)) return;
    const state = this.inUse.get(threadId);
    if (state === undefined) return;
    this.inUse.delete(threadId);
    this.idle.set(threadId, state);
  }

  private async withClusterLock<T>(cluster: ThreadCluster, threadId: string, work: () => Promise<T>) {
    const lock = await cluster.lock(threadId);
    try {
      return await work();
    } finally {
      await lock.release();
    }
  }

  private async loadFromCluster(cluster: ThreadCluster, threadId: string): Promise<ThreadState | undefined> {
    const read = await cluster.read(threadId);
    this.seenVersions.set(threadId, read.version);
    if (read.isLeased) this.seenLeased.add(threadId);
    else this.seenLeased.delete(threadId);
    if (read.state) this.notifyCommitted(read.state);
    return read.state;
  }

  private afterClusterWrite(state: ThreadState, outcome: ThreadWriteOutcome): void {
    if (outcome.kind === 'conflict') throw new ThreadWriteConflictError();
    if (outcome.kind !== 'written') {
      this.logger.warn({ msg: 'a run lost its lease: write refused', threadId: state.threadId });
      throw new AguiError(ErrorCode.STATE_PERSISTENCE_FAILED, 'executionMappingNotCommitted');
    }
    this.seenVersions.set(state.threadId, outcome.version);
    this.notifyCommitted(state);
  }

  /** Renews at a third of the TTL; once the lease is gone the run's next write is refused (fencing). */
  private renewLease(cluster: ThreadCluster, threadId: string, leaseToken: string): NodeJS.Timeout {
    const renewal = setInterval(() => {
      cluster.renewLease(threadId, leaseToken).then(
        (isHeld) => {
          if (isHeld) return;
          clearInterval(renewal);
          this.logger.warn({ msg: 'run lease lost', code: ErrorCode.THREAD_BUSY, threadId });
        },
        (error: unknown) =>
          this.logger.warn({ msg: 'renewing a run lease failed', threadId, error: String(error) }),
      );
    }, cluster.leaseRenewMs);
    renewal.unref();
    return renewal;
  }

  private leaseTokenOf(threadId: string, runId: string): string | undefined {
    const active = this.activeRuns.get(threadId);
    return active?.runId === runId ? active.leaseToken : undefined;
  }

  private cancelLocalRun(threadId: string, executionId: string): void {
    this.activeRuns.get(threadId)?.cancel?.(executionId);
  }

  private notifyCommitted(state: ThreadState): void {
    this.countPending(state);
    for (const listener of this.commitListeners) listener(state);
  }
}
