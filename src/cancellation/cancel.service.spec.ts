import { Logger } from '@nestjs/common';
import { deferred } from '../../test/support/deferred';
import { ScriptedA2aGateway } from '../../test/support/fakes/scripted-a2a-gateway';
import { FakeClock } from '../../test/support/fakes/fake-clock';
import { InMemoryThreadStore } from '../../test/support/fakes/in-memory-thread-store';
import { ActivityTracker } from '../common/activity-tracker';
import { ErrorCode } from '../common/error-code';
import { ThreadRegistry } from '../threads/thread-registry';
import { ThreadRunState } from '../threads/thread-run-state';
import type { ThreadState } from '../threads/thread-state';
import { CancelService } from './cancel.service';
import { threadStateFixture } from '../../test/support/thread-state-fixture';

const REQUEST = { threadId: 'thread-1', executionId: 'exec-1', rosInvocationId: 'invocation-1' };

/** A kernel whose CancelTask answers only when the test says so, to look at the service while it waits. */
class HeldCancelGateway extends ScriptedA2aGateway {
  private readonly asking = deferred();
  private readonly answer = deferred();
  readonly asked = this.asking.promise;

  override async cancelTask(taskId: string): Promise<void> {
    this.asking.resolve();
    await this.answer.promise;
    return super.cancelTask(taskId);
  }

  answerCancel(): void {
    this.answer.resolve();
  }
}

async function newCancelService(
  state: ThreadState = threadStateFixture({ isParked: true }),
  gateway = new ScriptedA2aGateway(),
  cancelTimeoutMs = 10_000,
) {
  const store = new InMemoryThreadStore();
  await store.save(state);
  const registry = new ThreadRegistry(store);
  const activity = new ActivityTracker(new FakeClock());
  const service = new CancelService(registry, gateway, activity, { cancelTimeoutMs });
  return { service, gateway, registry, store, activity };
}

describe('CancelService when the kernel no longer knows the task', () => {
  it('makes the parked execution terminal anyway (a restarted kernel has nothing to cancel)', async () => {
    const { service, gateway, registry } = await newCancelService();
    gateway.forgetTasks();
    await expect(service.cancel(REQUEST)).resolves.toBe('cancelled');
    const state = await registry.load('thread-1');
    expect(state?.terminalExecutionIds).toEqual(['exec-1']);
    expect(state?.execution).toMatchObject({ taskId: null, lastTaskId: 'task-1', pending: {} });
  });

  it('changes nothing on a transient failure, so the caller can retry', async () => {
    const { service, gateway, registry } = await newCancelService();
    gateway.failCancels();
    await expect(service.cancel(REQUEST)).rejects.toMatchObject({ code: ErrorCode.A2A_UNAVAILABLE });
    const state = await registry.load('thread-1');
    expect(state?.terminalExecutionIds).toEqual([]);
    expect(state?.execution.taskId).toBe('task-1');
  });
});

describe('CancelService.cancel (docs/behaviour/cancel.md#cancel-route)', () => {
  it.each([
    { name: 'an unknown thread', request: { ...REQUEST, threadId: 'thread-unknown' } },
    { name: 'an execution the thread never had', request: { ...REQUEST, executionId: 'exec-unknown' } },
    { name: 'another rosInvocationId', request: { ...REQUEST, rosInvocationId: 'invocation-9' } },
  ])('$name is EXECUTION_NOT_FOUND, with no CancelTask and no write', async ({ request }) => {
    const { service, gateway, store } = await newCancelService();
    const saves = store.saveCount;
    await expect(service.cancel(request)).rejects.toMatchObject({ code: ErrorCode.EXECUTION_NOT_FOUND });
    expect(gateway.cancelledTaskIds).toEqual([]);
    expect(store.saveCount).toBe(saves);
  });

  it.each([
    { name: 'another principal', principal: 'alice' },
    { name: 'an anonymous caller', principal: undefined },
  ])(
    "$name on bob's thread is EXECUTION_NOT_FOUND, with no CancelTask and no write",
    async ({ principal }) => {
      const { service, gateway, store } = await newCancelService({
        ...threadStateFixture({ isParked: true }),
        principal: 'bob',
      });
      const saves = store.saveCount;
      await expect(service.cancel({ ...REQUEST, principal })).rejects.toMatchObject({
        code: ErrorCode.EXECUTION_NOT_FOUND,
      });
      expect(gateway.cancelledTaskIds).toEqual([]);
      expect(store.saveCount).toBe(saves);
      await expect(service.cancel({ ...REQUEST, principal: 'bob' })).resolves.toBe('cancelled');
    },
  );

  it('a parked interrupt: CancelTask for its task, pending cleared, the execution terminal and persisted', async () => {
    const { service, gateway, store } = await newCancelService();
    await expect(service.cancel(REQUEST)).resolves.toBe('cancelled');
    expect(gateway.cancelledTaskIds).toEqual(['task-1']);
    const persisted = JSON.parse(store.documents.get('thread-1') ?? 'null') as ThreadState;
    expect(persisted.terminalExecutionIds).toEqual(['exec-1']);
    expect(persisted.execution).toMatchObject({ taskId: null, lastTaskId: 'task-1', pending: {} });
  });

  it('a terminal execution answers already_terminal, and cancelling twice cancels the task once', async () => {
    const { service, gateway } = await newCancelService();
    await service.cancel(REQUEST);
    await expect(service.cancel(REQUEST)).resolves.toBe('already_terminal');
    expect(gateway.cancelledTaskIds).toEqual(['task-1']);
  });

  it('a running run of the execution is ended at once, after the write', async () => {
    const { service, registry, store } = await newCancelService(threadStateFixture());
    await registry.commitAndClaim(threadStateFixture(), 'run-1');
    const ended: { executionId: string; wasPersisted: boolean }[] = [];
    registry.onCancel('thread-1', 'run-1', (executionId) => {
      ended.push({
        executionId,
        wasPersisted: (
          JSON.parse(store.documents.get('thread-1') ?? 'null') as ThreadState
        ).terminalExecutionIds.includes('exec-1'),
      });
      void registry.release('thread-1', 'run-1');
    });
    await expect(service.cancel(REQUEST)).resolves.toBe('cancelled');
    expect(ended).toEqual([{ executionId: 'exec-1', wasPersisted: true }]);
  });

  it('answers once the cancelled run has freed the thread (after its last write, under the lock), so the next run is admitted', async () => {
    const { service, registry } = await newCancelService(threadStateFixture());
    await registry.commitAndClaim(threadStateFixture(), 'run-1');
    const run = new ThreadRunState(registry, threadStateFixture(), 'run-1', new Logger('test'));
    const heard = deferred();
    const ending = deferred();
    // As a run ends: its terminal write takes the thread's lock, then it gives the slot back.
    run.onCancelled(() => {
      heard.resolve();
      void ending.promise.then(() => run.markTerminal()).then(() => run.release());
    });
    let isAnswered = false;
    const answered = service.cancel(REQUEST).finally(() => (isAnswered = true));
    await heard.promise;
    await new Promise((resolve) => setImmediate(resolve));
    expect(isAnswered).toBe(false);
    ending.resolve();
    await expect(answered).resolves.toBe('cancelled');
    expect(registry.isBusy('thread-1')).toBe(false);
  });

  it('waits for that run at most the cancel timeout', async () => {
    const { service, registry } = await newCancelService(threadStateFixture(), undefined, 1);
    await registry.commitAndClaim(threadStateFixture(), 'run-1');
    registry.onCancel('thread-1', 'run-1', () => undefined);
    await expect(service.cancel(REQUEST)).resolves.toBe('cancelled');
    expect(registry.isBusy('thread-1')).toBe(true);
  });

  it('an execution with no task bound yet sends no CancelTask and still ends', async () => {
    const unbound = threadStateFixture();
    const { service, gateway, registry } = await newCancelService({
      ...unbound,
      execution: { ...unbound.execution, taskId: null },
    });
    await expect(service.cancel(REQUEST)).resolves.toBe('cancelled');
    expect(gateway.cancelledTaskIds).toEqual([]);
    expect((await registry.load('thread-1'))?.terminalExecutionIds).toEqual(['exec-1']);
  });

  it('keeps the AgentCore session busy while CancelTask is in flight (docs/behaviour/agentcore.md#ping)', async () => {
    const gateway = new HeldCancelGateway();
    const { service, activity } = await newCancelService(undefined, gateway);
    const cancelled = service.cancel(REQUEST);
    await gateway.asked;
    expect(activity.isBusy).toBe(true);
    gateway.answerCancel();
    await expect(cancelled).resolves.toBe('cancelled');
    expect(activity.isBusy).toBe(false);
  });

  it('a failed write after CancelTask answers STATE_UNAVAILABLE and leaves the stored execution as it was', async () => {
    const { service, store, registry } = await newCancelService();
    store.failNextSaves(1);
    await expect(service.cancel(REQUEST)).rejects.toMatchObject({ code: ErrorCode.STATE_UNAVAILABLE });
    expect((await registry.load('thread-1'))?.terminalExecutionIds).toEqual([]);
    expect(JSON.parse(store.documents.get('thread-1') ?? 'null')).toMatchObject({ terminalExecutionIds: [] });
  });
});
