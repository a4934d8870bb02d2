import { ScriptedA2aGateway } from '../../test/support/fakes/scripted-a2a-gateway';
import { FakeClock } from '../../test/support/fakes/fake-clock';
import { InMemoryThreadStore } from '../../test/support/fakes/in-memory-thread-store';
import { ActivityTracker } from '../common/activity-tracker';
import { ErrorCode } from '../common/error-code';
import { ThreadRegistry } from '../threads/thread-registry';
import type { ThreadState } from '../threads/thread-state';
import { CancelService } from './cancel.service';

const REQUEST = { threadId: 'thread-1', executionId: 'exec-1', rosInvocationId: 'invocation-1' };

function parkedThread(): ThreadState {
  return {
    schemaVersion: 1,
    threadId: 'thread-1',
    contextId: 'agui-0123456789abcdef0123456789abcdef01234567',
    cwd: '/work/ws',
    userId: null,
    iacCodeSessionId: 'session-1',
    execution: {
      executionId: 'exec-1',
      rosInvocationId: 'invocation-1',
      taskId: 'task-1',
      lastTaskId: null,
      pipelineSequence: 0,
      pipelineOpenSteps: [],
      textSnapshotDigests: [],
      pending: {
        'permission-1': { value: { inputId: 'permission-1', kind: 'permission' }, sideband: false },
      },
    },
    runDigests: {},
    appliedResumeDigests: [],
    terminalExecutionIds: [],
  };
}

async function newCancelService() {
  const store = new InMemoryThreadStore();
  await store.save(parkedThread());
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
