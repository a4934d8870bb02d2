import type {
  ThreadCluster,
  ThreadClusterLock,
  ThreadWriteCondition,
  ThreadWriteOutcome,
  VersionedThread,
} from '../../../src/threads/thread-cluster';
import type { ThreadState } from '../../../src/threads/thread-state';

/**
 * A `ThreadCluster` in memory, for unit specs of the cluster coordination: versioned documents with
 * compare-and-set, one lease per thread with a fencing token, and a cancel channel. `takeLease` plays another
 * replica holding the slot; `dropLease` a lease that expired; `loseEverything` a Redis restarted without
 * AOF; `calls` records what reached the cluster; `beforeWrite` and `afterWrite` let a test act at the moment
 * a given write is decided, or has landed.
 */
export class FakeThreadCluster implements ThreadCluster {
  readonly leaseRenewMs = 1_000;
  readonly leaseTtlMs = 3_000;
  readonly calls: string[] = [];
  private readonly documents = new Map<string, { state: ThreadState; version: number }>();
  private readonly leases = new Map<string, string>();
  private readonly cancelListeners: ((threadId: string, executionId: string) => void)[] = [];
  private nextToken = 1;
  beforeWrite?: (state: ThreadState) => void;
  afterWrite?: (state: ThreadState) => void;

  async lock(threadId: string): Promise<ThreadClusterLock> {
    this.calls.push(`lock ${threadId}`);
    return { release: async () => void this.calls.push(`unlock ${threadId}`) };
  }

  async read(threadId: string): Promise<VersionedThread> {
    const document = this.documents.get(threadId);
    return { state: document?.state, version: document?.version ?? 0, isLeased: this.leases.has(threadId) };
  }

  async write(
    state: ThreadState,
    expectedVersion: number,
    condition: ThreadWriteCondition = {},
  ): Promise<ThreadWriteOutcome> {
    this.calls.push(`write ${state.threadId}@${expectedVersion}`);
    this.beforeWrite?.(state);
    const current = this.documents.get(state.threadId)?.version ?? 0;
    // Fenced before a conflict, as the Redis script: without the lease no version could land.
    if (condition.fenceToken !== undefined && this.leases.get(state.threadId) !== condition.fenceToken)
      return { kind: 'fenced' };
    if (current !== expectedVersion) return { kind: 'conflict' };
    if (condition.claimForRun !== undefined && this.leases.has(state.threadId)) return { kind: 'busy' };
    this.documents.set(state.threadId, { state, version: current + 1 });
    let leaseToken: string | undefined;
    if (condition.claimForRun !== undefined) {
      leaseToken = `lease-${this.nextToken++}`;
      this.leases.set(state.threadId, leaseToken);
    }
    this.afterWrite?.(state);
    return { kind: 'written', version: current + 1, ...(leaseToken ? { leaseToken } : {}) };
  }

  async renewLease(threadId: string, leaseToken: string): Promise<boolean> {
    this.calls.push(`renew ${threadId}`);
    return this.leases.get(threadId) === leaseToken;
  }

  async releaseLease(threadId: string, leaseToken: string): Promise<void> {
    this.calls.push(`release ${threadId}`);
    if (this.leases.get(threadId) === leaseToken) this.leases.delete(threadId);
  }

  async publishCancel(threadId: string, executionId: string): Promise<void> {
    for (const listener of this.cancelListeners) listener(threadId, executionId);
  }

  onCancelPublished(listener: (threadId: string, executionId: string) => void): void {
    this.cancelListeners.push(listener);
  }

  takeLease(threadId: string): void {
    this.leases.set(threadId, 'other-replica');
  }

  dropLease(threadId: string): void {
    this.leases.delete(threadId);
  }

  loseEverything(): void {
    this.documents.clear();
    this.leases.clear();
  }
}
