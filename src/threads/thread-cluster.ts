import { AguiError } from '../common/agui-error';
import { ErrorCode } from '../common/error-code';
import type { ThreadState } from './thread-state';

/**
 * Injection token of the cluster side of thread state (docs/architecture.md#decisions). Bound to the Redis
 * store when `IAC_CODE_AGUI_STATE_STORE=redis`, to null with the file store: the registry then keeps its
 * in-process lock, cache and busy slot exactly as before.
 */
export const THREAD_CLUSTER = Symbol('THREAD_CLUSTER');

/** Marks a store that is also a ThreadCluster, so telling one apart needs no import of the Redis code. */
export const IS_THREAD_CLUSTER = Symbol('IS_THREAD_CLUSTER');

export function isThreadCluster(store: object): store is ThreadCluster {
  return (store as { [IS_THREAD_CLUSTER]?: unknown })[IS_THREAD_CLUSTER] === true;
}

/** A thread as one read saw it: the document, its version and whether some replica holds its run lease. */
export interface VersionedThread {
  readonly state: ThreadState | undefined;
  /** Bumped by every write; 0 while the thread has no document. */
  readonly version: number;
  readonly isLeased: boolean;
}

/**
 * How a compare-and-set write ended. `conflict`: the version moved since the read; `busy`: a claim found the
 * lease held; `fenced`: a fenced write found that the run no longer holds the lease it names.
 */
export type ThreadWriteOutcome =
  | { readonly kind: 'written'; readonly version: number; readonly leaseToken?: string }
  | { readonly kind: 'conflict' | 'busy' | 'fenced' };

export interface ThreadWriteCondition {
  /** Take the run lease for this run in the same atomic step (admission). */
  readonly claimForRun?: string;
  /** Write only while this lease token is still the thread's lease (a run's own writes). */
  readonly fenceToken?: string;
}

/** A cluster-wide mutex on one thread, renewed while held; releasing never throws. */
export interface ThreadClusterLock {
  release(): Promise<void>;
}

/**
 * What several replicas need to share one thread space: a per-thread mutex, versioned documents written by
 * compare-and-set, run leases with fencing tokens, and a cancel broadcast (docs/behaviour/state.md#admission, docs/behaviour/cancel.md#cancel-route).
 */
export interface ThreadCluster {
  /** How often a held run lease must be renewed (a fraction of its TTL). */
  readonly leaseRenewMs: number;
  /** How long a run lease lives without a renewal. */
  readonly leaseTtlMs: number;
  lock(threadId: string): Promise<ThreadClusterLock>;
  read(threadId: string): Promise<VersionedThread>;
  write(
    state: ThreadState,
    expectedVersion: number,
    condition?: ThreadWriteCondition,
  ): Promise<ThreadWriteOutcome>;
  /**
   * False when the lease is gone or belongs to someone else now (the run must stop writing and stop acting on
   * the kernel); rejects when the cluster does not answer. Also the lease check before a kernel side effect.
   */
  renewLease(threadId: string, leaseToken: string): Promise<boolean>;
  releaseLease(threadId: string, leaseToken: string): Promise<void>;
  /** Tells every replica that this execution was cancelled, so the one streaming it ends its run. */
  publishCancel(threadId: string, executionId: string): Promise<void>;
  onCancelPublished(listener: (threadId: string, executionId: string) => void): void;
}

/**
 * Another replica wrote the thread between this replica's read and its write (the compare-and-set lost).
 * Admission retries; anything else that meets it answers 503 and the caller may retry.
 */
export class ThreadWriteConflictError extends AguiError {
  constructor() {
    super(ErrorCode.STATE_UNAVAILABLE, 'stateUnavailable');
    this.name = 'ThreadWriteConflictError';
  }
}
