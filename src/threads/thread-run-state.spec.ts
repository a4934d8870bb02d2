import { Logger } from '@nestjs/common';
import { InMemoryThreadStore } from '../../test/support/fakes/in-memory-thread-store';
import { ThreadRegistry } from './thread-registry';
import { ThreadRunState } from './thread-run-state';
import { threadStateFixture } from '../../test/support/thread-state-fixture';

const THREAD = 'thread-1';

async function admittedRun() {
  const store = new InMemoryThreadStore();
  const registry = new ThreadRegistry(store);
  const state = threadStateFixture();
  await registry.withLock(THREAD, () => registry.commitAndClaim(state, 'run-1'));
  const run = new ThreadRunState(registry, state, 'run-1', new Logger('test'));
  return { store, registry, run };
}

describe('ThreadRunState: a run whose client left', () => {
  it('makes the execution terminal and frees the slot before a run queued behind it on the lock looks', async () => {
    const { registry, run, store } = await admittedRun();
    const leaving = run.markTerminalAndRelease();
    // The client's next run queues on the lock right behind the terminal write: it must find the slot free.
    const seenByNextRun = registry.withLock(THREAD, async () => {
      const isBusy = registry.isBusy(THREAD);
      return { isBusy, state: await registry.load(THREAD) };
    });
    await leaving;
    const { isBusy, state } = await seenByNextRun;
    expect(isBusy).toBe(false);
    expect(state?.terminalExecutionIds).toEqual(['exec-1']);
    expect(state?.execution).toMatchObject({ taskId: null, lastTaskId: 'task-1', pending: {} });
    expect(JSON.parse(store.documents.get(THREAD) ?? '{}').terminalExecutionIds).toEqual(['exec-1']);
  });

  it('settles a release() that was already waiting for the terminal write', async () => {
    const { registry, run } = await admittedRun();
    const leaving = run.markTerminalAndRelease();
    const released = run.release();
    await expect(Promise.all([leaving, released])).resolves.toBeDefined();
    expect(registry.isBusy(THREAD)).toBe(false);
  });

  it('frees the slot even when the terminal write fails', async () => {
    const { registry, run, store } = await admittedRun();
    store.failNextSaves(1);
    await run.markTerminalAndRelease();
    expect(registry.isBusy(THREAD)).toBe(false);
    expect((await registry.load(THREAD))?.terminalExecutionIds).toEqual([]);
  });
});
