import { AguiError } from '../common/agui-error';
import { ErrorCode } from '../common/error-code';
import type { ThreadCluster, VersionedThread } from './thread-cluster';
import { validateThreadState } from './thread-state';
import type { ThreadStore } from './thread-store';

/**
 * What any store returns is checked before the registry uses it (docs/embedding.md#thread-stores): a
 * host's store may hand back a parsed but damaged document, another thread's, or throw its driver's own
 * error. Each of these is `AguiError(STATE_UNAVAILABLE)` — a 503 for that thread, never a 500 — and a
 * valid document comes back normalised as the built-in stores return it (validation is idempotent).
 */
export function validatedStore(store: ThreadStore): ThreadStore {
  return {
    load: async (threadId) => {
      const state = await asUnavailable(() => store.load(threadId));
      return state === undefined ? undefined : validateThreadState(state, threadId);
    },
    save: (state) => store.save(state),
    checkReady: () => store.checkReady(),
  };
}

/** The same check on a cluster's reads; every other call goes to the cluster as it is. */
export function validatedCluster(cluster: ThreadCluster): ThreadCluster {
  return {
    get leaseRenewMs() {
      return cluster.leaseRenewMs;
    },
    get leaseTtlMs() {
      return cluster.leaseTtlMs;
    },
    lock: (threadId) => cluster.lock(threadId),
    read: async (threadId): Promise<VersionedThread> => {
      const read = await asUnavailable(() => cluster.read(threadId));
      return read.state === undefined ? read : { ...read, state: validateThreadState(read.state, threadId) };
    },
    write: (state, expectedVersion, condition) => cluster.write(state, expectedVersion, condition),
    renewLease: (threadId, leaseToken) => cluster.renewLease(threadId, leaseToken),
    releaseLease: (threadId, leaseToken) => cluster.releaseLease(threadId, leaseToken),
    publishCancel: (threadId, executionId) => cluster.publishCancel(threadId, executionId),
    onCancelPublished: (listener) => cluster.onCancelPublished(listener),
  };
}

async function asUnavailable<T>(read: () => Promise<T>): Promise<T> {
  try {
    return await read();
  } catch (error) {
    if (error instanceof AguiError) throw error;
    throw new AguiError(ErrorCode.STATE_UNAVAILABLE, 'stateUnavailable', { cause: error });
  }
}
