import { FakeClock } from '../../test/support/fakes/fake-clock';
import { InMemoryThreadStore } from '../../test/support/fakes/in-memory-thread-store';
import { ThreadAdmissionService } from './thread-admission.service';
import { ThreadRegistry } from './thread-registry';
import { threadStateFixture } from '../../test/support/thread-state-fixture';

async function newAdmission() {
  const store = new InMemoryThreadStore();
  await store.save(threadStateFixture({ isParked: true }));
  const registry = new ThreadRegistry(store);
  return { admission: new ThreadAdmissionService(registry, new FakeClock()), registry, store };
}

const newTurn = {
  threadId: 'thread-1',
  runId: 'run-2',
  rawBody: '{"threadId":"thread-1","runId":"run-2"}',
  cwd: '/work/ws',
  userId: null,
  rosInvocationId: 'invocation-2',
  isResume: false,
};

describe('ThreadAdmissionService.abandonExecution (the kernel forgot a parked execution)', () => {
  it('ends the execution, so the refused new turn is admitted on a fresh one', async () => {
    const { admission, registry } = await newAdmission();
    await expect(admission.admit(newTurn)).rejects.toMatchObject({ code: 'RESUME_REQUIRED' });
    await admission.abandonExecution('thread-1', 'exec-1');
    const { state } = await admission.admit(newTurn);
    expect(state.execution.executionId).not.toBe('exec-1');
    expect(state.execution.pending).toEqual({});
    expect(state.terminalExecutionIds).toEqual(['exec-1']);
    expect(state.execution.lastTaskId).toBe('task-1');
    expect(registry.isBusy('thread-1')).toBe(true);
  });

  it('leaves a thread that moved on to another execution alone', async () => {
    const { admission, store } = await newAdmission();
    const before = store.documents.get('thread-1');
    await admission.abandonExecution('thread-1', 'exec-0');
    expect(store.documents.get('thread-1')).toBe(before);
  });

  it('refuses with STATE_UNAVAILABLE when the write fails, changing nothing', async () => {
    const { admission, store, registry } = await newAdmission();
    store.failNextSaves(1);
    await expect(admission.abandonExecution('thread-1', 'exec-1')).rejects.toMatchObject({
      code: 'STATE_UNAVAILABLE',
    });
    expect((await registry.load('thread-1'))?.execution.pending).toHaveProperty('permission-1');
  });
});
