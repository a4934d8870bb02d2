import assert from 'node:assert/strict';
import type { ThreadCluster } from '../threads/thread-cluster';
import {
  boundedCases,
  type ContractCase,
  type ContractSuiteOptions,
  type UnboundedCase,
} from './contract-case';
import { sampleThreadState } from './sample-thread-state';

/**
 * Two replicas' handles on one fresh, empty shared thread space (two connections to one database, one
 * Redis, …), for one case; `cleanup` closes both.
 */
export interface ThreadClusterUnderTest {
  readonly replicas: readonly [ThreadCluster, ThreadCluster];
  cleanup(): Promise<void>;
  /**
   * Resolves once the cancel listeners just registered on the replicas hear messages (a pub/sub
   * subscription confirmed); omit it when registering is immediate.
   */
  listening?(): Promise<void>;
}

/**
 * What a `ThreadCluster` must do for replicas to answer as one process would (docs/embedding.md#scale-out):
 * versioned compare-and-set writes, one run lease per thread with a fencing token, a per-thread lock that
 * excludes the other replica, and a cancel broadcast that reaches it. Each case writes through one replica
 * and checks through the other. Lease expiry (a crashed replica's TTL) is the implementation's own test.
 * Every case is bounded (`options.timeoutMs`): a call that never answers, or a cancel nobody hears, fails it.
 */
export function threadClusterContractCases(
  makeCluster: () => Promise<ThreadClusterUnderTest>,
  options: ContractSuiteOptions = {},
): ContractCase[] {
  type Body = (a: ThreadCluster, b: ThreadCluster, subject: ThreadClusterUnderTest) => Promise<void>;
  const withReplicas = (body: Body) => async () => {
    const subject = await makeCluster();
    try {
      await body(...subject.replicas, subject);
    } finally {
      await subject.cleanup();
    }
  };
  const state = sampleThreadState;
  const cases: UnboundedCase[] = [
    {
      name: 'reads a thread it has never written as version 0, no document, no lease',
      run: withReplicas(async (a) => {
        assert.deepEqual(await a.read('thread-new'), { state: undefined, version: 0, isLeased: false });
      }),
    },
    {
      name: 'writes at the version read, and the other replica reads the document and its new version',
      run: withReplicas(async (a, b) => {
        const first = await a.write(state('thread-1', 'v1'), 0);
        assert.equal(first.kind, 'written');
        const read = await b.read('thread-1');
        assert.deepEqual(read.state, state('thread-1', 'v1'));
        assert.equal(read.version, first.kind === 'written' ? first.version : NaN);
        assert.ok(read.version > 0);
        const second = await b.write(state('thread-1', 'v2'), read.version);
        assert.equal(second.kind, 'written');
        assert.ok(second.kind === 'written' && second.version > read.version);
        assert.deepEqual((await a.read('thread-1')).state, state('thread-1', 'v2'));
      }),
    },
    {
      name: 'refuses a write at a stale version as a conflict, and keeps the winner',
      run: withReplicas(async (a, b) => {
        await a.write(state('thread-1', 'v1'), 0);
        const seen = (await a.read('thread-1')).version;
        assert.equal((await b.write(state('thread-1', 'b'), seen)).kind, 'written');
        assert.deepEqual(await a.write(state('thread-1', 'a'), seen), { kind: 'conflict' });
        assert.deepEqual(await a.write(state('thread-2', 'a'), 7), { kind: 'conflict' });
        assert.deepEqual((await b.read('thread-1')).state, state('thread-1', 'b'));
        assert.equal((await b.read('thread-2')).state, undefined);
      }),
    },
    {
      name: 'a claim takes the run lease in the same step; the other replica sees it and its claim is busy',
      run: withReplicas(async (a, b) => {
        const claimed = await a.write(state('thread-1', 'v1'), 0, { claimForRun: 'run-a' });
        assert.ok(claimed.kind === 'written' && typeof claimed.leaseToken === 'string');
        const seen = await b.read('thread-1');
        assert.equal(seen.isLeased, true);
        assert.deepEqual(await b.write(state('thread-1', 'v2'), seen.version, { claimForRun: 'run-b' }), {
          kind: 'busy',
        });
        assert.deepEqual((await a.read('thread-1')).state, state('thread-1', 'v1'));
      }),
    },
    {
      name: 'fences a run’s write by its lease token: written while held, fenced once released or for another token',
      run: withReplicas(async (a, b) => {
        const claimed = await a.write(state('thread-1', 'v1'), 0, { claimForRun: 'run-a' });
        assert.ok(claimed.kind === 'written' && claimed.leaseToken !== undefined);
        const token = claimed.leaseToken;
        const held = await a.write(state('thread-1', 'v2'), claimed.version, { fenceToken: token });
        assert.equal(held.kind, 'written');
        const version = held.kind === 'written' ? held.version : 0;
        assert.deepEqual(await b.write(state('thread-1', 'x'), version, { fenceToken: `${token}-other` }), {
          kind: 'fenced',
        });
        await b.releaseLease('thread-1', token);
        assert.equal((await b.read('thread-1')).isLeased, false);
        assert.deepEqual(await a.write(state('thread-1', 'v3'), version, { fenceToken: token }), {
          kind: 'fenced',
        });
        assert.deepEqual((await b.read('thread-1')).state, state('thread-1', 'v2'));
      }),
    },
    {
      name: 'renews a lease only for its holder, and only while it holds it; releasing with another token keeps it',
      run: withReplicas(async (a, b) => {
        const claimed = await a.write(state('thread-1'), 0, { claimForRun: 'run-a' });
        assert.ok(claimed.kind === 'written' && claimed.leaseToken !== undefined);
        assert.equal(await b.renewLease('thread-1', claimed.leaseToken), true);
        assert.equal(await b.renewLease('thread-1', 'not-the-token'), false);
        await b.releaseLease('thread-1', 'not-the-token');
        assert.equal((await b.read('thread-1')).isLeased, true);
        await a.releaseLease('thread-1', claimed.leaseToken);
        assert.equal(await a.renewLease('thread-1', claimed.leaseToken), false);
        const next = await b.write(state('thread-1', 'v2'), claimed.version, { claimForRun: 'run-b' });
        assert.ok(next.kind === 'written' && next.leaseToken !== claimed.leaseToken);
      }),
    },
    {
      name: 'holds a thread’s lock against the other replica until released, and not another thread’s',
      run: withReplicas(async (a, b) => {
        const order: string[] = [];
        const held = await a.lock('thread-1');
        const other = await b.lock('thread-2'); // another thread is not held up
        await other.release();
        const waiting = b.lock('thread-1').then((lock) => {
          order.push('b locked');
          return lock;
        });
        // Work under a's lock that needs the shared space: a lock that excluded nobody lets b in meanwhile.
        await a.write(state('thread-1'), 0);
        await a.read('thread-1');
        order.push('a releases');
        await held.release();
        await (await waiting).release();
        assert.deepEqual(order, ['a releases', 'b locked']);
      }),
    },
    {
      name: 'broadcasts a cancel to the other replica',
      run: withReplicas(async (a, b, subject) => {
        const heard = new Promise<[string, string]>((resolve) =>
          b.onCancelPublished((threadId, executionId) => resolve([threadId, executionId])),
        );
        await subject.listening?.();
        await a.publishCancel('thread-1', 'exec-1');
        assert.deepEqual(await heard, ['thread-1', 'exec-1']);
      }),
    },
    {
      name: 'renews a lease before it expires: leaseRenewMs is positive and below leaseTtlMs',
      run: withReplicas((a) => {
        assert.ok(Number.isFinite(a.leaseRenewMs) && a.leaseRenewMs > 0);
        // The gateway asks the cluster before a kernel call once its last confirmation is half a TTL old.
        assert.ok(Number.isFinite(a.leaseTtlMs) && a.leaseTtlMs > a.leaseRenewMs);
        return Promise.resolve();
      }),
    },
  ];
  return boundedCases(cases, options);
}
