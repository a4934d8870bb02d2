import { AguiError, ErrorCode, validateThreadState } from '../../../src/index';
import type {
  ThreadCluster,
  ThreadClusterLock,
  ThreadState,
  ThreadStore,
  ThreadWriteCondition,
  ThreadWriteOutcome,
  VersionedThread,
} from '../../../src/index';

/**
 * A host's own shared thread storage, written against the public API only (as a team's Postgres store
 * would be): one `SharedThreadSpace` is the database, each `replica()` one replica's connection to it —
 * a ThreadStore and a ThreadCluster in one object. Documents are kept as JSON text (a save never aliases),
 * writes are compare-and-set on a version, one lease per thread with a fencing token, a FIFO lock per
 * thread, and a cancel channel every replica hears. Leases do not expire (no crashed replica here).
 */
export class SharedThreadSpace {
  readonly documents = new Map<string, { text: string; version: number }>();
  private readonly leases = new Map<string, string>();
  private readonly lockTails = new Map<string, Promise<void>>();
  private readonly cancelListeners: ((threadId: string, executionId: string) => void)[] = [];
  private nextToken = 1;

  replica(): ThreadStore & ThreadCluster {
    return new SharedThreadSpaceReplica(this);
  }

  /** A document that does not pass `validateThreadState` is STATE_UNAVAILABLE, as the store contract asks. */
  read(threadId: string): VersionedThread {
    const document = this.documents.get(threadId);
    return {
      state: document === undefined ? undefined : parsed(document.text, threadId),
      version: document?.version ?? 0,
      isLeased: this.leases.has(threadId),
    };
  }

  write(state: ThreadState, expectedVersion: number, condition: ThreadWriteCondition): ThreadWriteOutcome {
    const current = this.versionOf(state.threadId);
    if (current !== expectedVersion) return { kind: 'conflict' };
    const lease = this.leases.get(state.threadId);
    if (condition.claimForRun !== undefined && lease !== undefined) return { kind: 'busy' };
    if (condition.fenceToken !== undefined && lease !== condition.fenceToken) return { kind: 'fenced' };
    const version = current + 1;
    this.documents.set(state.threadId, { text: JSON.stringify(state), version });
    if (condition.claimForRun === undefined) return { kind: 'written', version };
    const leaseToken = `lease-${this.nextToken++}`;
    this.leases.set(state.threadId, leaseToken);
    return { kind: 'written', version, leaseToken };
  }

  versionOf(threadId: string): number {
    return this.documents.get(threadId)?.version ?? 0;
  }

  holdsLease(threadId: string, leaseToken: string): boolean {
    return this.leases.get(threadId) === leaseToken;
  }

  releaseLease(threadId: string, leaseToken: string): void {
    if (this.holdsLease(threadId, leaseToken)) this.leases.delete(threadId);
  }

  async lock(threadId: string): Promise<ThreadClusterLock> {
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    const previous = this.lockTails.get(threadId) ?? Promise.resolve();
    const tail = previous.then(() => released);
    this.lockTails.set(threadId, tail);
    await previous;
    return {
      release: async () => {
        release();
        if (this.lockTails.get(threadId) === tail) this.lockTails.delete(threadId);
      },
    };
  }

  publishCancel(threadId: string, executionId: string): void {
    for (const listener of this.cancelListeners) listener(threadId, executionId);
  }

  onCancelPublished(listener: (threadId: string, executionId: string) => void): void {
    this.cancelListeners.push(listener);
  }
}

class SharedThreadSpaceReplica implements ThreadStore, ThreadCluster {
  readonly leaseRenewMs = 5_000;
  readonly leaseTtlMs = 15_000;

  constructor(private readonly space: SharedThreadSpace) {}

  async load(threadId: string): Promise<ThreadState | undefined> {
    return this.space.read(threadId).state;
  }

  async save(state: ThreadState): Promise<void> {
    const outcome = this.space.write(state, this.space.versionOf(state.threadId), {});
    if (outcome.kind !== 'written') throw new AguiError(ErrorCode.STATE_UNAVAILABLE, 'stateUnavailable');
  }

  async checkReady(): Promise<void> {}

  lock(threadId: string): Promise<ThreadClusterLock> {
    return this.space.lock(threadId);
  }

  async read(threadId: string): Promise<VersionedThread> {
    return this.space.read(threadId);
  }

  async write(
    state: ThreadState,
    expectedVersion: number,
    condition: ThreadWriteCondition = {},
  ): Promise<ThreadWriteOutcome> {
    return this.space.write(state, expectedVersion, condition);
  }

  async renewLease(threadId: string, leaseToken: string): Promise<boolean> {
    return this.space.holdsLease(threadId, leaseToken);
  }

  async releaseLease(threadId: string, leaseToken: string): Promise<void> {
    this.space.releaseLease(threadId, leaseToken);
  }

  async publishCancel(threadId: string, executionId: string): Promise<void> {
    this.space.publishCancel(threadId, executionId);
  }

  onCancelPublished(listener: (threadId: string, executionId: string) => void): void {
    this.space.onCancelPublished(listener);
  }
}

function parsed(text: string, threadId: string): ThreadState {
  try {
    return validateThreadState(JSON.parse(text), threadId);
  } catch (error) {
    throw new AguiError(ErrorCode.STATE_UNAVAILABLE, 'stateUnavailable', { cause: error });
  }
}
