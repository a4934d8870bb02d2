import { ScriptedA2aGateway } from '../../test/support/fakes/scripted-a2a-gateway';
import { FakeClock } from '../../test/support/fakes/fake-clock';
import { InMemoryThreadStore } from '../../test/support/fakes/in-memory-thread-store';
import { ActivityTracker } from '../common/activity-tracker';
import { ErrorCode } from '../common/error-code';
import { ThreadRegistry } from '../threads/thread-registry';
import { CancelService } from './cancel.service';
import { threadStateFixture } from '../../test/support/thread-state-fixture';

const REQUEST = { threadId: 'thread-1', executionId: 'exec-1', rosInvocationId: 'invocation-1' };

async function newCancelService() {
  const store = new InMemoryThreadStore();
  await store.save(threadStateFixture({ isParked: true }));
  const registry = new ThreadRegistry(store);
  const gateway = new ScriptedA2aGateway();
  const service = new CancelService(registry, gateway, new ActivityTracker(new FakeClock()));
  return { service, gateway, registry };
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
