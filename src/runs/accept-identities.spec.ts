import { Logger } from '@nestjs/common';
import { admittedRunFixture } from '../../test/support/admitted-run-fixture';
import { statusFrame } from '../demo-kernel/kernel-frames';
import { unwrapFrame } from '../wire/unwrap-frame';
import { MessageCatalogue } from '../i18n/message-catalogue';
import type { ThreadState } from '../threads/thread-state';
import { FakeClock } from '../../test/support/fakes/fake-clock';
import { ScriptedA2aGateway } from '../../test/support/fakes/scripted-a2a-gateway';
import { threadStateFixture } from '../../test/support/thread-state-fixture';
import { RunContext } from './run-context';
import type { RunPersistence } from '../threads/run-persistence';

const fixture = threadStateFixture();
const CONTEXT = fixture.contextId;
const IDS = { taskId: 'task-1', contextId: CONTEXT, sessionId: 'session-1' };
/** Admitted, before the kernel named its task or session. */
const admittedState: ThreadState = {
  ...fixture,
  iacCodeSessionId: null,
  execution: { ...fixture.execution, taskId: null },
};

/** Applies each write to its state and keeps every state written, in order; `failWrites` refuses them. */
class RecordingPersistence implements RunPersistence {
  readonly written: ThreadState[] = [];
  failWrites = false;

  constructor(public state: ThreadState) {}

  async write(change: (state: ThreadState) => ThreadState): Promise<void> {
    if (this.failWrites) throw new Error('disk full');
    this.state = change(this.state);
    this.written.push(this.state);
  }

  async markTerminal(): Promise<void> {}
  async markTerminalAndRelease(): Promise<void> {}
  onCancelled(): void {}
  async ensureLease(): Promise<void> {}
  onLeaseLost(): void {}
  async release(): Promise<void> {}
}

function contextFor(persistence: RecordingPersistence, gateway = new ScriptedA2aGateway()): RunContext {
  const run = admittedRunFixture(
    {
      threadId: 'thread-1',
      runId: 'run-1',
      messages: [{ id: 'm-1', role: 'user', content: 'hello' }],
      forwardedProps: { iacCode: { schemaVersion: 1, rosInvocationId: 'invocation-1', cwd: '/work/ws' } },
    },
    { executionId: 'exec-1', contextId: CONTEXT, persistence },
  );
  return new RunContext(run, {
    gateway,
    persistence,
    clock: new FakeClock(),
    catalogue: new MessageCatalogue(),
    logger: new Logger('AcceptIdentitiesSpec'),
    validate: () => true,
    interruptTtlSeconds: 0,
    cancelTimeoutMs: 1000,
  });
}

const identities = (state: ThreadState) => ({
  taskId: state.execution.taskId,
  sessionId: state.iacCodeSessionId,
});

describe('RunContext.acceptIdentities', () => {
  beforeAll(() => Logger.overrideLogger(false));

  it('makes a new task id and a new session id of one frame durable in one write', async () => {
    const persistence = new RecordingPersistence(admittedState);
    await contextFor(persistence).acceptIdentities(unwrapFrame(statusFrame(IDS, 'TASK_STATE_SUBMITTED')));
    expect(persistence.written.map(identities)).toEqual([{ taskId: 'task-1', sessionId: 'session-1' }]);
  });

  it('writes each id when it first appears, and nothing for ids already known', async () => {
    const persistence = new RecordingPersistence(admittedState);
    const ctx = contextFor(persistence);
    await ctx.acceptIdentities(
      unwrapFrame({ task: { id: 'task-1', contextId: CONTEXT, status: { state: 'TASK_STATE_SUBMITTED' } } }),
    );
    await ctx.acceptIdentities(unwrapFrame(statusFrame(IDS, 'TASK_STATE_SUBMITTED')));
    await ctx.acceptIdentities(unwrapFrame(statusFrame(IDS, 'TASK_STATE_WORKING', { text: 'hi' })));
    expect(persistence.written.map(identities)).toEqual([
      { taskId: 'task-1', sessionId: null },
      { taskId: 'task-1', sessionId: 'session-1' },
    ]);
  });

  it('still makes a new task id durable when the same frame names another context', async () => {
    const persistence = new RecordingPersistence(admittedState);
    const frame = unwrapFrame(statusFrame({ ...IDS, contextId: 'other' }, 'TASK_STATE_SUBMITTED'));
    await expect(contextFor(persistence).acceptIdentities(frame)).rejects.toMatchObject({
      code: 'A2A_PROTOCOL_ERROR',
      messageKey: 'contextIdentityChanged',
    });
    expect(persistence.written.map(identities)).toEqual([{ taskId: 'task-1', sessionId: null }]);
  });

  it('ends with STATE_PERSISTENCE_FAILED and cancels the new task when the write fails', async () => {
    const persistence = new RecordingPersistence(admittedState);
    persistence.failWrites = true;
    const gateway = new ScriptedA2aGateway();
    const frame = unwrapFrame(statusFrame(IDS, 'TASK_STATE_SUBMITTED'));
    await expect(contextFor(persistence, gateway).acceptIdentities(frame)).rejects.toMatchObject({
      code: 'STATE_PERSISTENCE_FAILED',
      messageKey: 'executionMappingNotCommitted',
    });
    expect(gateway.cancelledTaskIds).toEqual(['task-1']);
  });
});
