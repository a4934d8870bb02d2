import { FakeClock } from '../../test/support/fakes/fake-clock';
import { InMemoryThreadStore } from '../../test/support/fakes/in-memory-thread-store';
import { threadStateFixture } from '../../test/support/thread-state-fixture';
import { ErrorCode } from '../common/error-code';
import { canonicalDigest } from '../wire/canonical-digest';
import { ThreadAdmissionService } from './thread-admission.service';
import { ThreadWriteConflictError } from './thread-cluster';
import { ThreadRegistry } from './thread-registry';
import type { ThreadState } from './thread-state';

/** A registry whose next `conflicts` admission writes lose the compare-and-set, as another replica's write would. */
class RacingRegistry extends ThreadRegistry {
  conflicts = 0;
  override async commitAndClaim(state: ThreadState, runId: string): Promise<void> {
    if (this.conflicts > 0) {
      this.conflicts--;
      throw new ThreadWriteConflictError();
    }
    return super.commitAndClaim(state, runId);
  }
}

async function newAdmissionOf(state?: ThreadState) {
  const store = new InMemoryThreadStore();
  if (state) await store.save(state);
  const registry = new RacingRegistry(store);
  const clock = new FakeClock();
  return { admission: new ThreadAdmissionService(registry, clock), registry, store, clock };
}

const newAdmission = () => newAdmissionOf(threadStateFixture({ isParked: true }));

const newTurn = {
  threadId: 'thread-1',
  runId: 'run-2',
  digest: canonicalDigest('{"threadId":"thread-1","runId":"run-2"}'),
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

const firstRun = {
  ...newTurn,
  threadId: 'thread-new',
  runId: 'run-1',
  digest: canonicalDigest('{"threadId":"thread-new","runId":"run-1"}'),
  rosInvocationId: 'invocation-1',
};

describe('ThreadAdmissionService.admit (docs/behaviour/state.md#admission)', () => {
  it('a new thread: persisted with its run digest before the run starts, the slot taken under its runId', async () => {
    const { admission, registry, store } = await newAdmissionOf();
    const { state, admittedRunId } = await admission.admit(firstRun);
    expect(admittedRunId).toBe('run-1');
    expect(state).toMatchObject({
      threadId: 'thread-new',
      cwd: '/work/ws',
      execution: { rosInvocationId: 'invocation-1', taskId: null, pending: {} },
      runDigests: { 'run-1': firstRun.digest },
      terminalExecutionIds: [],
    });
    expect(JSON.parse(store.documents.get('thread-new') ?? 'null')).toEqual(state);
    expect(registry.isBusy('thread-new')).toBe(true);
  });

  it('the same run retried (same body) is DUPLICATE_RUN_ID, another body under its runId RUN_ID_CONFLICT; nothing written', async () => {
    const { admission, registry, store } = await newAdmissionOf();
    await admission.admit(firstRun);
    await registry.release('thread-new', 'run-1');
    const saves = store.saveCount;
    await expect(admission.admit(firstRun)).rejects.toMatchObject({ code: ErrorCode.DUPLICATE_RUN_ID });
    await expect(
      admission.admit({ ...firstRun, digest: canonicalDigest('{"other":true}') }),
    ).rejects.toMatchObject({
      code: ErrorCode.RUN_ID_CONFLICT,
    });
    expect(store.saveCount).toBe(saves);
    expect(registry.isBusy('thread-new')).toBe(false);
  });

  it('another run while one holds the slot is THREAD_BUSY; after its release the next turn is admitted', async () => {
    const { admission, registry } = await newAdmissionOf();
    await admission.admit(firstRun);
    const second = { ...firstRun, runId: 'run-2', digest: canonicalDigest('{"run":2}') };
    await expect(admission.admit(second)).rejects.toMatchObject({ code: ErrorCode.THREAD_BUSY });
    await registry.release('thread-new', 'run-1');
    await expect(admission.admit(second)).resolves.toMatchObject({ admittedRunId: 'run-2' });
  });

  it("a generic client's resume is checked against the thread's invocation id, one load under one lock", async () => {
    const parked = threadStateFixture({
      isParked: true,
      expiresAt: new Date(Date.UTC(2026, 10, 30, 13)).toISOString(),
    });
    const resume = { ...newTurn, isResume: true, rosInvocationId: 'run-2' };
    const { admission, registry } = await newAdmissionOf(parked);
    await expect(admission.admit(resume)).rejects.toMatchObject({ code: ErrorCode.EXECUTION_LOST });
    const { state } = await admission.admit({ ...resume, invocationFromThread: true });
    expect(state.execution.rosInvocationId).toBe(parked.execution.rosInvocationId);
    expect(registry.isBusy('thread-1')).toBe(true);
  });

  it('a new turn on a thread parked at an unexpired interrupt is RESUME_REQUIRED and leaves it parked', async () => {
    const { admission, registry, clock } = await newAdmissionOf(
      threadStateFixture({ isParked: true, expiresAt: new Date(Date.UTC(2026, 10, 30, 13)).toISOString() }),
    );
    expect(clock.now()).toBeLessThan(Date.UTC(2026, 10, 30, 13));
    await expect(admission.admit(newTurn)).rejects.toMatchObject({ code: ErrorCode.RESUME_REQUIRED });
    expect((await registry.load('thread-1'))?.execution.pending).toHaveProperty('permission-1');
    expect(registry.isBusy('thread-1')).toBe(false);
  });

  it('a new turn after the interrupt expired rotates the execution and names the task to cancel as expired', async () => {
    const { admission, clock } = await newAdmissionOf(
      threadStateFixture({ isParked: true, expiresAt: new Date(Date.UTC(2026, 10, 30, 13)).toISOString() }),
    );
    clock.advance(60 * 60 * 1000); // 13:00, the expiry instant itself
    const admitted = await admission.admit(newTurn);
    expect(admitted.expiredTaskId).toBe('task-1');
    expect(admitted.staleTaskId).toBeUndefined();
    expect(admitted.state.terminalExecutionIds).toEqual(['exec-1']);
    expect(admitted.state.execution).toMatchObject({ taskId: null, lastTaskId: 'task-1', pending: {} });
    expect(admitted.state.execution.executionId).not.toBe('exec-1');
  });

  it('a new turn on an execution whose run never ended its task names that task as stale', async () => {
    const { admission } = await newAdmissionOf(threadStateFixture());
    const admitted = await admission.admit(newTurn);
    expect(admitted.staleTaskId).toBe('task-1');
    expect(admitted.expiredTaskId).toBeUndefined();
    expect(admitted.state.terminalExecutionIds).toEqual(['exec-1']);
  });

  it('a resume continues the parked execution without rotating it; another rosInvocationId is EXECUTION_LOST', async () => {
    const { admission } = await newAdmissionOf(threadStateFixture({ isParked: true }));
    const resume = { ...newTurn, rosInvocationId: 'invocation-1', isResume: true };
    await expect(admission.admit({ ...resume, rosInvocationId: 'invocation-9' })).rejects.toMatchObject({
      code: ErrorCode.EXECUTION_LOST,
    });
    const { state } = await admission.admit(resume);
    expect(state.execution).toMatchObject({ executionId: 'exec-1', taskId: 'task-1' });
    expect(state.execution.pending).toHaveProperty('permission-1');
  });

  it('a guidance run is recorded without taking the slot of the run it guides', async () => {
    const { admission, registry } = await newAdmissionOf(threadStateFixture());
    const guidance = { ...newTurn, rosInvocationId: 'invocation-1', isGuidance: true, isPipelineMode: true };
    const { state } = await admission.admit(guidance);
    expect(state.execution.executionId).toBe('exec-1');
    expect(state.runDigests).toHaveProperty('run-2');
    expect(registry.isBusy('thread-1')).toBe(false);
  });

  it('a failed write answers STATE_UNAVAILABLE and changes nothing: no document, no slot', async () => {
    const { admission, registry, store } = await newAdmissionOf();
    store.failNextSaves(1);
    await expect(admission.admit(firstRun)).rejects.toMatchObject({ code: ErrorCode.STATE_UNAVAILABLE });
    expect(store.documents.has('thread-new')).toBe(false);
    expect(registry.isBusy('thread-new')).toBe(false);
    await expect(admission.admit(firstRun)).resolves.toMatchObject({ admittedRunId: 'run-1' });
  });

  it('decides again after a lost compare-and-set, and answers THREAD_BUSY when the thread keeps moving', async () => {
    const retried = await newAdmissionOf();
    retried.registry.conflicts = 2;
    await expect(retried.admission.admit(firstRun)).resolves.toMatchObject({ admittedRunId: 'run-1' });
    expect(retried.registry.conflicts).toBe(0);

    const moving = await newAdmissionOf();
    moving.registry.conflicts = 3;
    await expect(moving.admission.admit(firstRun)).rejects.toMatchObject({ code: ErrorCode.THREAD_BUSY });
    expect(moving.store.documents.has('thread-new')).toBe(false);
  });
});
