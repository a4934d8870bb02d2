import { ScriptedA2aGateway } from '../../test/support/fakes/scripted-a2a-gateway';
import type { A2aOutgoingMessage } from '../wire/a2a-wire';
import { LeaseLostError } from '../threads/thread-coordination';
import { leaseGuardedGateway } from './lease-guarded-gateway';

const MESSAGE: A2aOutgoingMessage = {
  messageId: 'm-1',
  role: 'ROLE_USER',
  parts: [],
  contextId: 'ctx-1',
  taskId: 'task-1',
  metadata: { iac_code: {} },
};

function guarded(held: boolean) {
  const inner = new ScriptedA2aGateway();
  const ensureLease = jest.fn(() => (held ? Promise.resolve() : Promise.reject(new LeaseLostError())));
  return { inner, ensureLease, gateway: leaseGuardedGateway(inner, { ensureLease }) };
}

async function drain(frames: AsyncIterable<unknown>): Promise<number> {
  let count = 0;
  for await (const _frame of frames) count++;
  return count;
}

/** A run acts on the kernel only while it holds its thread (docs/behaviour/state.md#the-run-lease). */
describe('leaseGuardedGateway', () => {
  it('sends nothing that changes a task once the lease is lost: no message, no answer, no CancelTask', async () => {
    const { inner, ensureLease, gateway } = guarded(false);
    const signal = new AbortController().signal;
    await expect(drain(gateway.sendStreamingMessage(MESSAGE, signal))).rejects.toBeInstanceOf(LeaseLostError);
    await expect(gateway.sendMessage(MESSAGE)).rejects.toBeInstanceOf(LeaseLostError);
    await expect(gateway.cancelTask('task-1')).rejects.toBeInstanceOf(LeaseLostError);
    expect(inner.sentMessages).toEqual([]);
    expect(inner.cancelledTaskIds).toEqual([]);
    expect(ensureLease).toHaveBeenCalledTimes(3);
  });

  it('checks the lease before each side effect and passes it on while the lease holds', async () => {
    const { inner, ensureLease, gateway } = guarded(true);
    const frames = await drain(gateway.sendStreamingMessage(MESSAGE, new AbortController().signal));
    expect(frames).toBeGreaterThan(0);
    await gateway.sendMessage(MESSAGE);
    await gateway.cancelTask('task-1');
    expect(inner.sentMessages).toHaveLength(1);
    expect(inner.cancelledTaskIds).toEqual(['task-1']);
    expect(ensureLease).toHaveBeenCalledTimes(3);
  });

  it('lets reads through without a lease check: they change nothing', async () => {
    const { ensureLease, gateway } = guarded(false);
    await expect(gateway.getTask('task-1')).resolves.toMatchObject({ task: { id: 'task-1' } });
    await drain(gateway.subscribeToTask('task-1', new AbortController().signal));
    expect(ensureLease).not.toHaveBeenCalled();
  });
});
