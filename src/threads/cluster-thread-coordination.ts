import { setTimeout as delay } from 'node:timers/promises';
import { Logger } from '@nestjs/common';
import { AguiError } from '../common/agui-error';
import { ErrorCode } from '../common/error-code';
import { ThreadWriteConflictError, type ThreadCluster, type ThreadWriteOutcome } from './thread-cluster';
import {
  LeaseLostError,
  type CoordinatedLoad,
  type RunLease,
  type ThreadCoordination,
} from './thread-coordination';
import type { ThreadState } from './thread-state';

/** How often a cancel looks whether another replica's run gave its lease back. */
const LEASE_POLL_MS = 50;

/** What this replica knows of one lease it claimed, until it releases it. */
interface LeaseWatch {
  readonly threadId: string;
  readonly leaseToken: string;
  readonly renewal: NodeJS.Timeout;
  /** Monotonic time the last claim or renewal Redis confirmed was *sent*: the lease holds until then + TTL. */
  confirmedAt: number;
  /** Set once the lease is found lost: why, once the thread's document has been looked at. */
  lost?: Promise<LeaseLostError>;
  /** What `lost` resolved to, for a listener that comes later. */
  lostAs?: LeaseLostError;
  readonly lostListeners: ((lost: LeaseLostError) => void)[];
}

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
  /** The leases this replica's runs hold, by token. */
  private readonly watches = new Map<string, LeaseWatch>();

  /** `now` is monotonic (a lease is measured against elapsed time, never the wall clock). */
  constructor(
    private readonly cluster: ThreadCluster,
    private readonly now: () => number = () => performance.now(),
  ) {}

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

  /** LeaseLostError for a run's write (`fence`) once that run has lost its lease. */
  async commit(state: ThreadState, fence?: RunLease): Promise<void> {
    const outcome = await this.cluster.write(
      state,
      this.seenVersions.get(state.threadId) ?? 0,
      fence === undefined ? {} : { fenceToken: fence.leaseToken ?? '' },
    );
    if (outcome.kind === 'fenced') throw await this.markLost(fence?.leaseToken, state.threadId);
    this.afterWrite(state, outcome);
  }

  /** One atomic compare-and-set that also claims the lease; ThreadWriteConflictError if the document moved. */
  async claim(state: ThreadState, runId: string): Promise<RunLease> {
    const sentAt = this.now();
    const outcome = await this.cluster.write(state, this.seenVersions.get(state.threadId) ?? 0, {
      claimForRun: runId,
    });
    if (outcome.kind === 'busy') throw new AguiError(ErrorCode.THREAD_BUSY, 'threadBusy');
    this.afterWrite(state, outcome);
    const leaseToken = outcome.kind === 'written' ? outcome.leaseToken : undefined;
    if (!leaseToken) return {};
    const watch: LeaseWatch = {
      threadId: state.threadId,
      leaseToken,
      renewal: this.renew(leaseToken),
      confirmedAt: sentAt,
      lostListeners: [],
    };
    this.watches.set(leaseToken, watch);
    return { leaseToken, renewal: watch.renewal };
  }

  async ensureLease(lease: RunLease): Promise<void> {
    const watch = lease.leaseToken === undefined ? undefined : this.watches.get(lease.leaseToken);
    // No lease to lose: a guidance run, or a run that already gave its slot back.
    if (!watch) return;
    if (watch.lost) throw await watch.lost;
    const sentAt = this.now();
    if (sentAt - watch.confirmedAt < this.cluster.leaseTtlMs / 2) return;
    // A renewal is the check: it also tells whether the token still holds the lease, and extends it.
    if (!(await this.cluster.renewLease(watch.threadId, watch.leaseToken))) {
      throw await this.markLost(watch.leaseToken, watch.threadId);
    }
    watch.confirmedAt = Math.max(watch.confirmedAt, sentAt);
  }

  onLeaseLost(lease: RunLease, listener: (lost: LeaseLostError) => void): void {
    const watch = lease.leaseToken === undefined ? undefined : this.watches.get(lease.leaseToken);
    if (!watch) return;
    if (watch.lostAs) listener(watch.lostAs);
    else watch.lostListeners.push(listener);
  }

  isLeasedElsewhere(threadId: string): boolean {
    return this.seenLeased.has(threadId);
  }

  /**
   * Polled: a lease is given back by another replica, which tells nobody (the cancel broadcast goes one
   * way). Only a cancel waits here, bounded (docs/behaviour/cancel.md#cancel-route).
   */
  async whenLeaseFreed(threadId: string, bound: AbortSignal): Promise<void> {
    while (!bound.aborted) {
      const read = await this.cluster.read(threadId).catch(() => undefined);
      if (!read?.isLeased) return;
      // An abort ends the wait early (it rejects, and the loop's condition then ends the poll).
      await delay(LEASE_POLL_MS, undefined, { signal: bound }).catch(() => undefined);
    }
  }

  async release(threadId: string, lease: RunLease): Promise<void> {
    if (lease.renewal) clearInterval(lease.renewal);
    if (!lease.leaseToken) return;
    const watch = this.watches.get(lease.leaseToken);
    this.watches.delete(lease.leaseToken);
    // Lost: the key is another replica's now, or gone; the script would delete nothing anyway.
    if (watch?.lost) return;
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
    for (const watch of this.watches.values()) clearInterval(watch.renewal);
    this.watches.clear();
  }

  private afterWrite(state: ThreadState, outcome: ThreadWriteOutcome): void {
    if (outcome.kind === 'conflict') throw new ThreadWriteConflictError();
    if (outcome.kind !== 'written') {
      // Only a claim meets `busy` and only a fenced write meets `fenced`; both are handled before this.
      throw new AguiError(ErrorCode.STATE_UNAVAILABLE, 'stateUnavailable');
    }
    this.seenVersions.set(state.threadId, outcome.version);
  }

  /**
   * Renews at a third of the TTL. Once the lease is found gone the run is told at once (it stops, sending
   * nothing more to the kernel) and its next write is refused (fencing).
   */
  private renew(leaseToken: string): NodeJS.Timeout {
    const renewal = setInterval(() => {
      const watch = this.watches.get(leaseToken);
      if (!watch) return;
      const sentAt = this.now();
      this.cluster.renewLease(watch.threadId, leaseToken).then(
        (isHeld) => {
          if (isHeld) watch.confirmedAt = Math.max(watch.confirmedAt, sentAt);
          // eslint-disable-next-line @typescript-eslint/no-floating-promises -- never rejects; the listeners hear of it
          else void this.markLost(leaseToken, watch.threadId);
        },
        (error: unknown) =>
          this.logger.warn({
            msg: 'renewing a run lease failed',
            threadId: watch.threadId,
            error: String(error),
          }),
      );
    }, this.cluster.leaseRenewMs);
    renewal.unref();
    return renewal;
  }

  /**
   * The lease is gone: renewals stop at once and the run hears of it once, with why. A lease gone together
   * with the thread's document means the store lost the state (a Redis restart without AOF, an eviction:
   * docs/behaviour/state.md#redis-durability), not that another replica took over: the document is never
   * deleted, and a replica that takes a thread writes it.
   */
  private markLost(leaseToken: string | undefined, threadId: string): Promise<LeaseLostError> {
    const watch = leaseToken === undefined ? undefined : this.watches.get(leaseToken);
    if (watch?.lost) return watch.lost;
    if (watch) clearInterval(watch.renewal);
    const lost = this.cluster.read(threadId).then(
      (read) => new LeaseLostError(read.state === undefined),
      // Cannot tell: the usual reading of a lost lease.
      () => new LeaseLostError(),
    );
    if (!watch) return lost;
    watch.lost = lost.then((error) => {
      watch.lostAs = error;
      this.logger.warn({
        msg: error.isStateLost ? 'run lease lost with the thread state' : 'run lease lost',
        code: error.code,
        threadId,
      });
      for (const listener of watch.lostListeners.splice(0)) listener(error);
      return error;
    });
    return watch.lost;
  }
}
