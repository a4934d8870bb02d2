import { FakeThreadCluster } from '../../test/support/fakes/fake-thread-cluster';
import { sampleThreadState } from '../../test/support/thread-store.contract';
import { ErrorCode } from '../common/error-code';
import { ClusterThreadCoordination } from './cluster-thread-coordination';
import { ThreadWriteConflictError } from './thread-cluster';

function coordination() {
  const cluster = new FakeThreadCluster();
  const sut = new ClusterThreadCoordination(cluster);
  return { cluster, sut };
}

/** Several replicas share one thread space (docs/operations.md#scale-out-several-replicas-on-redis). */
describe('ClusterThreadCoordination', () => {
  afterEach(() => jest.useRealTimers());

  it('takes the cluster lock around the work and releases it when the work fails', async () => {
    const { cluster, sut } = coordination();
    await expect(sut.withLock('t', () => Promise.reject(new Error('boom')))).rejects.toThrow('boom');
    expect(cluster.calls).toEqual(['lock t', 'unlock t']);
  });

  it('writes against the version the last load saw; a write in between is a conflict', async () => {
    const { cluster, sut } = coordination();
    await sut.load('t');
    await sut.commit(sampleThreadState('t', 'v1'));
    await sut.commit(sampleThreadState('t', 'v2'));
    expect(cluster.calls).toEqual(['write t@0', 'write t@1']);
    const other = new ClusterThreadCoordination(cluster);
    await other.load('t');
    await other.commit(sampleThreadState('t', 'v3'));
    await expect(sut.commit(sampleThreadState('t', 'v4'))).rejects.toBeInstanceOf(ThreadWriteConflictError);
  });

  it('reports a load as fresh whenever the thread exists (another replica may have written)', async () => {
    const { sut } = coordination();
    await expect(sut.load('t')).resolves.toEqual({ state: undefined, isFresh: false });
    await sut.commit(sampleThreadState('t'));
    await expect(sut.load('t')).resolves.toEqual({ state: sampleThreadState('t'), isFresh: true });
  });

  it("refuses a claim while another replica's run holds the lease (THREAD_BUSY) and sees that lease", async () => {
    const { cluster, sut } = coordination();
    cluster.takeLease('t');
    await sut.load('t');
    expect(sut.isLeasedElsewhere('t')).toBe(true);
    await expect(sut.claim(sampleThreadState('t'), 'run-1')).rejects.toMatchObject({
      code: ErrorCode.THREAD_BUSY,
    });
  });

  it("fences a run's write once its lease is gone (STATE_PERSISTENCE_FAILED)", async () => {
    const { cluster, sut } = coordination();
    await sut.load('t');
    const lease = await sut.claim(sampleThreadState('t'), 'run-1');
    expect(lease.leaseToken).toBe('lease-1');
    await sut.commit(sampleThreadState('t', 'v2'), lease);
    cluster.dropLease('t');
    await expect(sut.commit(sampleThreadState('t', 'v3'), lease)).rejects.toMatchObject({
      code: ErrorCode.STATE_PERSISTENCE_FAILED,
    });
    sut.shutdown();
  });

  it('renews the lease while the run holds it and stops renewing on release', async () => {
    jest.useFakeTimers();
    const { cluster, sut } = coordination();
    await sut.load('t');
    const renewLease = jest.spyOn(cluster, 'renewLease');
    const lease = await sut.claim(sampleThreadState('t'), 'run-1');
    jest.advanceTimersByTime(cluster.leaseRenewMs * 2);
    expect(renewLease).toHaveBeenCalledTimes(2);
    await sut.release('t', lease);
    jest.advanceTimersByTime(cluster.leaseRenewMs * 2);
    expect(renewLease).toHaveBeenCalledTimes(2);
    expect(cluster.calls).toContain('release t');
    await expect(cluster.read('t')).resolves.toMatchObject({ isLeased: false });
  });

  it('forgets the version and lease it saw once the last lock holder is done', async () => {
    const { cluster, sut } = coordination();
    cluster.takeLease('t');
    await sut.load('t');
    sut.unlocked('t');
    expect(sut.isLeasedElsewhere('t')).toBe(false);
  });

  it('delivers a published cancel to the listeners of every replica', async () => {
    const { cluster, sut } = coordination();
    const other = new ClusterThreadCoordination(cluster);
    const heard: string[] = [];
    other.onCancelPublished((threadId, executionId) => heard.push(`${threadId}/${executionId}`));
    await sut.publishCancel('t', 'exec-1');
    expect(heard).toEqual(['t/exec-1']);
  });
});
