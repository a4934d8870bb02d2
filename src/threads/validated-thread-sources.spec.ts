import { sampleThreadState } from '../../test/support/thread-store.contract';
import { FakeThreadCluster } from '../../test/support/fakes/fake-thread-cluster';
import { ErrorCode } from '../common/error-code';
import type { ThreadState } from './thread-state';
import type { ThreadStore } from './thread-store';
import { validatedCluster, validatedStore } from './validated-thread-sources';

/** A host's store that hands back whatever it is told to, as a naive custom store would. */
const storeAnswering = (answer: () => Promise<unknown>): ThreadStore => ({
  load: answer as () => Promise<ThreadState | undefined>,
  save: async () => undefined,
  checkReady: async () => undefined,
});

const unavailable = { code: ErrorCode.STATE_UNAVAILABLE, messageKey: 'stateUnavailable' };

describe('validatedStore', () => {
  it.each([
    { name: 'a damaged document', answer: async () => ({ schemaVersion: 1, threadId: 'thread-1' }) },
    { name: "another thread's document", answer: async () => sampleThreadState('thread-2') },
    { name: "its driver's own error", answer: () => Promise.reject(new Error('connection reset')) },
  ])('turns $name into STATE_UNAVAILABLE', async ({ answer }) => {
    await expect(validatedStore(storeAnswering(answer)).load('thread-1')).rejects.toMatchObject(unavailable);
  });

  it('passes a valid document (normalised) and an absent one', async () => {
    const { pipelineSequence: _dropped, ...execution } = sampleThreadState('thread-1').execution;
    const loaded = await validatedStore(
      storeAnswering(async () => ({ ...sampleThreadState('thread-1'), execution })),
    ).load('thread-1');
    expect(loaded).toEqual(sampleThreadState('thread-1'));
    await expect(
      validatedStore(storeAnswering(async () => undefined)).load('thread-1'),
    ).resolves.toBeUndefined();
  });
});

describe('validatedCluster', () => {
  it("checks a read's document and keeps its version and lease", async () => {
    const cluster = new FakeThreadCluster();
    await cluster.write({ ...sampleThreadState('thread-1'), cwd: 42 } as unknown as ThreadState, 0);
    await expect(validatedCluster(cluster).read('thread-1')).rejects.toMatchObject(unavailable);
    await cluster.write(sampleThreadState('thread-2'), 0, { claimForRun: 'run-1' });
    await expect(validatedCluster(cluster).read('thread-2')).resolves.toEqual({
      state: sampleThreadState('thread-2'),
      version: 1,
      isLeased: true,
    });
    expect(validatedCluster(cluster).leaseRenewMs).toBe(cluster.leaseRenewMs);
    expect(validatedCluster(cluster).leaseTtlMs).toBe(cluster.leaseTtlMs);
  });
});
