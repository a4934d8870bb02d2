import { AguiError } from '../common/agui-error';
import { ErrorCode } from '../common/error-code';
import type { ThreadState } from './thread-state';

/** What a run holds while it has a thread's slot: in cluster mode the fencing token of its lease and its renewal. */
export interface RunLease {
  readonly leaseToken?: string;
  readonly renewal?: NodeJS.Timeout;
}

/** A load, and whether it came from durable storage (a cache hit is not news to the commit listeners). */
export interface CoordinatedLoad {
  readonly state: ThreadState | undefined;
  readonly isFresh: boolean;
}

/**
 * How ThreadRegistry's lock, reads, writes and run slot reach durable state (docs/behaviour/state.md#admission).
 * The registry keeps what is the same in every mode — the in-process lock queue, the active runs, the commit
 * listeners, the metrics — and one coordination holds what differs: `LocalThreadCoordination` (one replica: the
 * store and a bounded cache) or `ClusterThreadCoordination` (the Redis store shared by several replicas).
 */
export interface ThreadCoordination {
  /** Runs `work` holding the thread's lock across replicas; the registry has already serialised this process. */
  withLock<T>(threadId: string, work: () => Promise<T>): Promise<T>;
  load(threadId: string): Promise<CoordinatedLoad>;
  /** Writes durably; `fence` (a run's own write) is refused once that run has lost its slot. */
  commit(state: ThreadState, fence?: RunLease): Promise<void>;
  /** Admission's write and the run's slot as one step; THREAD_BUSY when another replica holds the slot. */
  claim(state: ThreadState, runId: string): Promise<RunLease>;
  /** Whether another replica's run held the slot when this lock holder last loaded the thread. */
  isLeasedElsewhere(threadId: string): boolean;
  /**
   * Resolves while the run may still act on the kernel for its thread; rejects LeaseLostError once its lease
   * is known lost (a renewal or a fenced write found it gone). When the last confirmed claim or renewal is
   * older than half the lease TTL it asks the cluster first (one script); a cluster that does not answer
   * rejects STATE_UNAVAILABLE, so nothing is sent without knowing (docs/behaviour/state.md#the-run-lease).
   */
  ensureLease(lease: RunLease): Promise<void>;
  /** `listener` runs once, when the run's lease is found lost and why (at once if that is already known). */
  onLeaseLost(lease: RunLease, listener: (lost: LeaseLostError) => void): void;
  /**
   * Resolves once no replica holds the thread's run lease any more, or when `bound` aborts, or when that
   * cannot be told (the store does not answer); never rejects. At once where there are no leases.
   */
  whenLeaseFreed(threadId: string, bound: AbortSignal): Promise<void>;
  /** Gives a run's slot back; never rejects. */
  release(threadId: string, lease: RunLease): Promise<void>;
  /** Tells the other replicas (if any) to end the thread's active run of that execution; never rejects. */
  publishCancel(threadId: string, executionId: string): Promise<void>;
  onCancelPublished(listener: (threadId: string, executionId: string) => void): void;
  /** The thread is in use (its lock held or queued for, or a run holding its slot) / no longer. */
  markInUse(threadId: string): void;
  markIdle(threadId: string): void;
  /** The last lock holder of the thread is done: forget what was seen under the lock. */
  unlocked(threadId: string): void;
  shutdown(): void;
}

/**
 * The run's lease is gone: another replica may hold the thread now (THREAD_TAKEN_OVER), or the store lost the
 * thread's document with it (`stateLost`: a Redis restart without AOF, an eviction; STATE_LOST). Not a version
 * conflict (retried) nor an unavailable store (503): the run stops at once, sending nothing more to the kernel.
 */
export class LeaseLostError extends AguiError {
  constructor(readonly isStateLost = false) {
    super(
      isStateLost ? ErrorCode.STATE_LOST : ErrorCode.THREAD_TAKEN_OVER,
      isStateLost ? 'threadStateLost' : 'threadTakenOver',
    );
    this.name = 'LeaseLostError';
  }
}
