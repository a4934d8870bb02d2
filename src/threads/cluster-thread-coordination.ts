import { Logger } from '@nestjs/common';
import { AguiError } from '../common/agui-error';
import { ErrorCode } from '../common/error-code';
import { ThreadWriteConflictError, type ThreadCluster, type ThreadWriteOutcome } from './thread-cluster';
import type { CoordinatedLoad, RunLease, ThreadCoordination } from './thread-coordination';
import type { ThreadState } from './thread-state';

/**
 * Several replicas over the Redis store (docs/operations.md#scale-out-several-replicas-on-redis): the lock also takes a Redis
 * mutex, `load` always reads Redis (no cache: another replica may have written), `commit` is a compare-and-set
 * against the version that load saw, the slot is a lease with a TTL renewed while the run streams, and a cancel
 * is broadcast to the replica streaming the run.
 */
export class ClusterThreadCoordination implements ThreadCoordination {
  private readonly logger = new Logger('ThreadRegistry');
  /** Per thread while someone holds its lock: the version and lease the last load saw. */
  private readonly seenVersions = new Map<string, number>();
  private readonly seenLeased = new Set<string>();
  private readonly renewals = new Set<NodeJS.Timeout>();

  constructor(private readonly cluster: ThreadCluster) {}

  async withLock<T>(threadId: string, work: () => Promise<T>): Promise<T> {
    const lock = await this.cluster.lock(threadId);
    try {
      return await work();
    } finally {
      await lock.release();
    }
  }

  async load(threadId: string): Promise<CoordinatedLoad> {
    const read = await this.cluster.read(threadId);
    this.seenVersions.set(threadId, read.version);
    if (read.isLeased) this.seenLeased.add(threadId);
    else this.seenLeased.delete(threadId);
    return { state: read.state, isFresh: read.state !== undefined };
  }

  /** STATE_PERSISTENCE_FAILED for a run's write (`fence`) once that run has lost its lease. */
  async commit(state: ThreadState, fence?: RunLease): Promise<void> {
    const outcome = await this.cluster.write(
      state,
      this.seenVersions.get(state.threadId) ?? 0,
      fence === undefined ? {} : { fenceToken: fence.leaseToken ?? '' },
    );
    this.afterWrite(state, outcome);
  }

  /** One atomic compare-and-set that also claims the lease; ThreadWriteConflictError if the document moved. */
  async claim(state: ThreadState, runId: string): Promise<RunLease> {
    const outcome = await this.cluster.write(state, this.seenVersions.get(state.threadId) ?? 0, {
      claimForRun: runId,
    });
    if (outcome.kind === 'busy') throw new AguiError(ErrorCode.THREAD_BUSY, 'threadBusy');
    this.afterWrite(state, outcome);
    const leaseToken = outcome.kind === 'written' ? outcome.leaseToken : undefined;
    return leaseToken ? { leaseToken, renewal: this.renew(state.threadId, leaseToken) } : {};
  }

  isLeasedElsewhere(threadId: string): boolean {
    return this.seenLeased.has(threadId);
  }

  async release(threadId: string, lease: RunLease): Promise<void> {
    if (lease.renewal) {
      clearInterval(lease.renewal);
      this.renewals.delete(lease.renewal);
    }
    if (!lease.leaseToken) return;
    await this.cluster.releaseLease(threadId, lease.leaseToken).catch((error: unknown) =>
      // The lease then expires on its own after its TTL.
      this.logger.warn({ msg: 'releasing a run lease failed', threadId, error: String(error) }),
    );
  }

  async publishCancel(threadId: string, executionId: string): Promise<void> {
    await this.cluster.publishCancel(threadId, executionId).catch((error: unknown) =>
      this.logger.warn({
        msg: 'broadcasting a cancel failed',
        threadId,
        executionId,
        error: String(error),
      }),
    );
  }

  onCancelPublished(listener: (threadId: string, executionId: string) => void): void {
    this.cluster.onCancelPublished(listener);
  }

  markInUse(): void {}

  markIdle(): void {}

  unlocked(threadId: string): void {
    this.seenVersions.delete(threadId);
    this.seenLeased.delete(threadId);
  }

  shutdown(): void {
    for (const renewal of this.renewals) clearInterval(renewal);
    this.renewals.clear();
  }

  private afterWrite(state: ThreadState, outcome: ThreadWriteOutcome): void {
    if (outcome.kind === 'conflict') throw new ThreadWriteConflictError();
    if (outcome.kind !== 'written') {
      this.logger.warn({ msg: 'a run lost its lease: write refused', threadId: state.threadId });
      throw new AguiError(ErrorCode.STATE_PERSISTENCE_FAILED, 'executionMappingNotCommitted');
    }
    this.seenVersions.set(state.threadId, outcome.version);
  }

  /** Renews at a third of the TTL; once the lease is gone the run's next write is refused (fencing). */
  private renew(threadId: string, leaseToken: string): NodeJS.Timeout {
    const renewal = setInterval(() => {
      this.cluster.renewLease(threadId, leaseToken).then(
        (isHeld) => {
          if (isHeld) return;
          clearInterval(renewal);
          this.renewals.delete(renewal);
          this.logger.warn({ msg: 'run lease lost', code: ErrorCode.THREAD_BUSY, threadId });
        },
        (error: unknown) =>
          this.logger.warn({ msg: 'renewing a run lease failed', threadId, error: String(error) }),
      );
    }, this.cluster.leaseRenewMs);
    renewal.unref();
    this.renewals.add(renewal);
    return renewal;
  }
}
