import { InMemoryThreadStore } from '../../test/support/fakes/in-memory-thread-store';
import { describeThreadStoreContract, sampleThreadState } from '../../test/support/thread-store.contract';

// The fake that unit tests of the run path use must behave like the real stores; FileThreadStore runs
// the same suite in test/integration/file-thread-store.int-spec.ts.
describeThreadStoreContract('InMemoryThreadStore', async () => {
  const store = new InMemoryThreadStore();
  return { store, cleanup: async () => undefined, corrupt: async (threadId) => store.corrupt(threadId) };
});

describe('InMemoryThreadStore failure hooks', () => {
  it('fails the requested number of saves and keeps the old document', async () => {
    const store = new InMemoryThreadStore();
    await store.save(sampleThreadState('thread-1', 'v1'));
    store.failNextSaves(1);
    await expect(store.save(sampleThreadState('thread-1', 'v2'))).rejects.toMatchObject({
      code: 'STATE_UNAVAILABLE',
    });
    await expect(store.load('thread-1')).resolves.toEqual(sampleThreadState('thread-1', 'v1'));
    await store.save(sampleThreadState('thread-1', 'v3'));
    expect(store.saveCount).toBe(2);
    expect(store.loadedThreadIds).toEqual(['thread-1']);
  });

  it('reports not ready when told', async () => {
    const store = new InMemoryThreadStore();
    store.setReady(false);
    await expect(store.checkReady()).rejects.toMatchObject({ code: 'STATE_UNAVAILABLE' });
  });
});
