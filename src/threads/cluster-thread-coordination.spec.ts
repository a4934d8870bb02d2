import { FakeThreadCluster } from '../../test/support/fakes/fake-thread-cluster';
import { sampleThreadState } from '../../test/support/thread-store.contract';
import { ErrorCode } from '../common/error-code';
import { ClusterThreadCoordination } from './cluster-thread-coordination';
import { AguiError } from '../common/agui-error';
import { ThreadWriteConflictError } from './thread-cluster';
import { LeaseLostError } from './thread-coordination';

function coordination() {
  const cluster = new FakeThreadCluster();
  const clock = { ms: 0 };
  const sut = new ClusterThreadCoordination(cluster, () => clock.ms);
  return { cluster, sut, clock };
}

/** A run holding the lease of thread `t` (fake timers), and a listener for its loss. */
async function runHoldingLease() {
  jest.useFakeTimers();
  const parts = coordination();
  await parts.sut.load('t');
  const lease = await parts.sut.claim(sampleThreadState('t'), 'run-1');
  const lost = jest.fn();
  parts.sut.onLeaseLost(lease, lost);
  return { ...parts, lease, lost };
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

  it("fences a run's write once its lease is gone: lease lost (THREAD_TAKEN_OVER), not a conflict", async () => {
    const { cluster, sut } = coordination();
    await sut.load('t');
    const lease = await sut.claim(sampleThreadState('t'), 'run-1');
    expect(lease.leaseToken).toBe('lease-1');
    await sut.commit(sampleThreadState('t', 'v2'), lease);
    cluster.dropLease('t');
    const lost = jest.fn();
    sut.onLeaseLost(lease, lost);
    const refused = sut.commit(sampleThreadState('t', 'v3'), lease);
    await expect(refused).rejects.toBeInstanceOf(LeaseLostError);
    await expect(refused).rejects.toMatchObject({ code: ErrorCode.THREAD_TAKEN_OVER });
    expect(lost).toHaveBeenCalledTimes(1);
    // From now on the run may not act on the kernel, and no Redis round trip is needed to know it.
    const callsBefore = cluster.calls.length;
    await expect(sut.ensureLease(lease)).rejects.toBeInstanceOf(LeaseLostError);
    expect(cluster.calls).toHaveLength(callsBefore);
    sut.shutdown();
  });

  it('tells the run at once when a renewal finds its lease gone', async () => {
    const { cluster, sut, lease, lost } = await runHoldingLease();
    cluster.takeLease('t');
    await jest.advanceTimersByTimeAsync(cluster.leaseRenewMs);
    expect(lost).toHaveBeenCalledTimes(1);
    await expect(sut.ensureLease(lease)).rejects.toMatchObject({ code: ErrorCode.THREAD_TAKEN_OVER });
    // Renewals stopped; a listener registered late hears of it too.
    await jest.advanceTimersByTimeAsync(cluster.leaseRenewMs * 3);
    expect(cluster.calls.filter((call) => call === 'renew t')).toHaveLength(1);
    const late = jest.fn();
    sut.onLeaseLost(lease, late);
    await jest.advanceTimersByTimeAsync(0);
    expect(late).toHaveBeenCalledWith(expect.objectContaining({ code: ErrorCode.THREAD_TAKEN_OVER }));
    await sut.release('t', lease);
    expect(cluster.calls).not.toContain('release t');
  });

  it('tells a lease lost together with the thread document apart: the state was lost (STATE_LOST), not taken over', async () => {
    const { cluster, sut, lease, lost } = await runHoldingLease();
    // A Redis restart without AOF: the document and the lease are both gone.
    cluster.loseEverything();
    await jest.advanceTimersByTimeAsync(cluster.leaseRenewMs);
    expect(lost).toHaveBeenCalledWith(
      expect.objectContaining({ code: ErrorCode.STATE_LOST, messageKey: 'threadStateLost' }),
    );
    await expect(sut.ensureLease(lease)).rejects.toMatchObject({ code: ErrorCode.STATE_LOST });
    await expect(sut.commit(sampleThreadState('t', 'v2'), lease)).rejects.toMatchObject({
      code: ErrorCode.STATE_LOST,
    });
    sut.shutdown();
  });

  it('checks the lease in the cluster before a side effect only once the last renewal is older than half the TTL', async () => {
    jest.useFakeTimers();
    const { cluster, sut, clock } = coordination();
    await sut.load('t');
    const lease = await sut.claim(sampleThreadState('t'), 'run-1');
    clock.ms = cluster.leaseTtlMs / 2 - 1;
    await sut.ensureLease(lease);
    expect(cluster.calls.filter((call) => call === 'renew t')).toHaveLength(0);
    // A process frozen past the TTL: its renewal timer never ran, and another replica took the thread.
    clock.ms = cluster.leaseTtlMs * 2;
    cluster.takeLease('t');
    await expect(sut.ensureLease(lease)).rejects.toBeInstanceOf(LeaseLostError);
    expect(cluster.calls.filter((call) => call === 'renew t')).toHaveLength(1);
    sut.shutdown();
  });

  it('refuses a side effect it cannot vouch for while the cluster does not answer (STATE_UNAVAILABLE), without calling the lease lost', async () => {
    jest.useFakeTimers();
    const { cluster, sut, clock } = coordination();
    await sut.load('t');
    const lease = await sut.claim(sampleThreadState('t'), 'run-1');
    const lost = jest.fn();
    sut.onLeaseLost(lease, lost);
    clock.ms = cluster.leaseTtlMs;
    const unavailable = new AguiError(ErrorCode.STATE_UNAVAILABLE, 'stateUnavailable');
    jest.spyOn(cluster, 'renewLease').mockRejectedValueOnce(unavailable);
    await expect(sut.ensureLease(lease)).rejects.toBe(unavailable);
    expect(lost).not.toHaveBeenCalled();
    // Redis is back and the lease still this run's: the side effect may go, and the check counts as a renewal.
    await expect(sut.ensureLease(lease)).resolves.toBeUndefined();
    const renewals = cluster.calls.filter((call) => call === 'renew t').length;
    await sut.ensureLease(lease);
    expect(cluster.calls.filter((call) => call === 'renew t')).toHaveLength(renewals);
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
