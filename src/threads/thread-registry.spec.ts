import { InMemoryThreadStore } from '../../test/support/fakes/in-memory-thread-store';
import { sampleThreadState } from '../../test/support/thread-store.contract';
import { ThreadRegistry } from './thread-registry';

/** A registry over a store holding the given threads, keeping at most `cacheSize` idle threads. */
async function registryWith(threadIds: string[], cacheSize: number, cacheBytes?: number) {
  const store = new InMemoryThreadStore();
  for (const threadId of threadIds) await store.save(sampleThreadState(threadId));
  const sut = new ThreadRegistry(store, null, null, {
    threadCacheSize: cacheSize,
    threadCacheBytes: cacheBytes,
  });
  /** How often the registry read `threadId` from the store. */
  const storeLoads = (threadId: string) => store.loadedThreadIds.filter((id) => id === threadId).length;
  const touch = async (...ids: string[]) => {
    for (const id of ids) await sut.withLock(id, () => sut.load(id));
  };
  return { sut, store, storeLoads, touch };
}

function deferred(): { promise: Promise<void>; resolve: () => void } {
  let resolve!: () => void;
  const promise = new Promise<void>((done) => (resolve = done));
  return { promise, resolve };
}

describe('ThreadRegistry cache', () => {
  it('keeps the most recently used idle threads and reads an evicted one from the store again', async () => {
    const { storeLoads, touch } = await registryWith(['a', 'b', 'c'], 2);
    await touch('a', 'b', 'a', 'c'); // b is now the least recently used: evicted by c
    expect([storeLoads('a'), storeLoads('b'), storeLoads('c')]).toEqual([1, 1, 1]);
    await touch('a', 'c');
    expect([storeLoads('a'), storeLoads('c')]).toEqual([1, 1]);
    await touch('b');
    expect(storeLoads('b')).toBe(2);
  });

  it('evicts by bytes too: idle threads over the byte bound go, least recently used first', async () => {
    const size = JSON.stringify(sampleThreadState('a')).length;
    const { storeLoads, touch } = await registryWith(['a', 'b', 'c'], 100, 2 * size + 1);
    await touch('a', 'b', 'c'); // three fit the count bound, two the byte bound: a is evicted
    await touch('b', 'c');
    expect([storeLoads('b'), storeLoads('c')]).toEqual([1, 1]);
    await touch('a');
    expect(storeLoads('a')).toBe(2);
  });

  it('keeps no idle thread larger than the byte bound, and still serves it', async () => {
    const size = JSON.stringify(sampleThreadState('a')).length;
    const { sut, storeLoads, touch } = await registryWith(['a'], 100, size - 1);
    await touch('a', 'a');
    expect(storeLoads('a')).toBe(2);
    await expect(sut.withLock('a', () => sut.load('a'))).resolves.toEqual(sampleThreadState('a'));
  });

  it('reloads the last committed state of an evicted thread', async () => {
    const { sut, touch } = await registryWith(['a', 'b'], 1);
    await sut.withLock('a', () => sut.commit(sampleThreadState('a', 'v2')));
    await touch('b');
    await expect(sut.withLock('a', () => sut.load('a'))).resolves.toEqual(sampleThreadState('a', 'v2'));
  });

  it('never evicts a thread whose run holds the slot, and lets it go once released', async () => {
    const { sut, storeLoads, touch } = await registryWith(['busy', 'x', 'y', 'z'], 1);
    await sut.withLock('busy', async () => {
      const state = await sut.load('busy');
      await sut.commitAndClaim(state!, 'run-1');
    });
    await touch('x', 'y', 'z', 'busy');
    expect(storeLoads('busy')).toBe(1);
    await sut.release('busy', 'run-1');
    await touch('x', 'busy');
    expect(storeLoads('busy')).toBe(2);
  });

  it('never evicts a thread while its lock is held or queued for', async () => {
    const { sut, storeLoads, touch } = await registryWith(['locked', 'x', 'y'], 1);
    const firstHolder = deferred();
    const secondHolder = deferred();
    const loadsSeenInside: number[] = [];
    const first = sut.withLock('locked', async () => {
      await sut.load('locked');
      await firstHolder.promise;
    });
    const second = sut.withLock('locked', async () => {
      await sut.load('locked');
      loadsSeenInside.push(storeLoads('locked'));
      await secondHolder.promise;
    });
    await touch('x', 'y');
    firstHolder.resolve();
    await first;
    await touch('x', 'y'); // the second holder is still queued: the thread stays in memory
    secondHolder.resolve();
    await second;
    expect(loadsSeenInside).toEqual([1]);
    await touch('x', 'locked');
    expect(storeLoads('locked')).toBe(2);
  });

  it('does not cache a thread that is not in the store', async () => {
    const { sut, store, storeLoads } = await registryWith([], 1);
    await expect(sut.withLock('new', () => sut.load('new'))).resolves.toBeUndefined();
    await store.save(sampleThreadState('new'));
    await expect(sut.withLock('new', () => sut.load('new'))).resolves.toEqual(sampleThreadState('new'));
    expect(storeLoads('new')).toBe(2);
  });
});

describe('ThreadRegistry.cancelActiveRun (docs/behaviour/cancel.md#cancel-route)', () => {
  /** A registry whose thread `t` has run-1 holding the slot, and that run's execution id. */
  async function withActiveRun() {
    const { sut } = await registryWith(['t'], 10);
    const state = await sut.withLock('t', async () => {
      const loaded = (await sut.load('t'))!;
      await sut.commitAndClaim(loaded, 'run-1');
      return loaded;
    });
    return { sut, executionId: state.execution.executionId };
  }
  /** Every reaction already due has run (one turn of the event loop; no timer). */
  const settled = () => new Promise((resolve) => setImmediate(resolve));
  const never = () => new AbortController().signal;

  it('ends the run of that execution and resolves only once the run has freed the slot', async () => {
    const { sut, executionId } = await withActiveRun();
    const heard: string[] = [];
    sut.onCancel('t', 'run-1', (cancelled) => heard.push(cancelled));
    let isFreed = false;
    const freed = sut.cancelActiveRun('t', executionId, never()).then(() => (isFreed = true));
    await settled();
    expect(heard).toEqual([executionId]);
    expect(isFreed).toBe(false);
    await sut.release('t', 'run-1');
    await freed;
    expect(sut.isBusy('t')).toBe(false);
  });

  it('resolves at once when no run of it can end here: another execution, or a run that registered no cancel', async () => {
    const { sut, executionId } = await withActiveRun();
    await expect(sut.cancelActiveRun('t', executionId, never())).resolves.toBeUndefined();
    sut.onCancel('t', 'run-1', () => undefined);
    await expect(sut.cancelActiveRun('t', 'another-execution', never())).resolves.toBeUndefined();
    expect(sut.isBusy('t')).toBe(true);
  });

  it('is bounded: resolves when the bound aborts, with the run still holding the slot', async () => {
    const { sut, executionId } = await withActiveRun();
    sut.onCancel('t', 'run-1', () => undefined);
    const bound = new AbortController();
    const freed = sut.cancelActiveRun('t', executionId, bound.signal);
    bound.abort();
    await expect(freed).resolves.toBeUndefined();
    expect(sut.isBusy('t')).toBe(true);
  });
});
