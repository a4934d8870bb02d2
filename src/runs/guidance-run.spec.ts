import type { BaseEvent } from '@ag-ui/core';
import { admittedRunFixture } from '../../test/support/admitted-run-fixture';
import { Logger } from '@nestjs/common';
import { JsonRpcTransportError } from '@a2a-js/sdk/errors';
import type { A2aFrame, A2aOutgoingMessage } from '../wire/a2a-wire';
import { statusFrame } from '../demo-kernel/kernel-frames';
import { UpstreamHttpError } from '../a2a/upstream-error';
import { MessageCatalogue } from '../i18n/message-catalogue';
import type { ThreadState } from '../threads/thread-state';
import { FakeClock } from '../../test/support/fakes/fake-clock';
import { ScriptedA2aGateway } from '../../test/support/fakes/scripted-a2a-gateway';
import { GuidanceRun } from './guidance-run';
import type { RunPersistence } from '../threads/run-persistence';
import type { AdmittedRun } from './admitted-run';

const CONTEXT = 'agui-context';
const LIVE = { taskId: 'task-live', contextId: CONTEXT, sessionId: 'session-1' };

/** Answers the guidance message with the given frames, or fails as told. */
class GuidanceAnswer extends ScriptedA2aGateway {
  constructor(private readonly answer: readonly A2aFrame[] | (() => never)) {
    super();
  }

  override async *sendStreamingMessage(message: A2aOutgoingMessage): AsyncIterable<A2aFrame> {
    this.sentMessages.push(message);
    if (typeof this.answer === 'function') this.answer();
    else yield* this.answer;
  }
}

function state(taskId: string | null): ThreadState {
  return {
    schemaVersion: 1,
    threadId: 'thread-1',
    contextId: CONTEXT,
    cwd: '/ws',
    userId: null,
    iacCodeSessionId: 'session-1',
    execution: {
      executionId: 'exec-1',
      rosInvocationId: 'inv-1',
      taskId,
      lastTaskId: null,
      pipelineSequence: 3,
      pipelineOpenSteps: [],
      textSnapshotDigests: [],
      pending: {},
    },
    runDigests: {},
    appliedResumeDigests: [],
    terminalExecutionIds: [],
  };
}

/** A persistence that fails the test on any write: a guidance run writes nothing while it streams. */
function readOnly(thread: ThreadState): RunPersistence {
  const refuse = () => Promise.reject(new Error('a guidance run must not write'));
  return {
    state: thread,
    write: refuse,
    markTerminal: refuse,
    markTerminalAndRelease: refuse,
    onCancelled: () => {},
    ensureLease: async () => {},
    onLeaseLost: () => {},
    release: async () => {},
  };
}

function admitted(persistence: RunPersistence): AdmittedRun {
  return admittedRunFixture(
    {
      threadId: 'thread-1',
      runId: 'guide-1',
      messages: [{ id: 'm-guide', role: 'user', content: 'prefer one zone' }],
      forwardedProps: {
        iacCode: {
          schemaVersion: 1,
          rosInvocationId: 'inv-1',
          cwd: '/ws',
          runMode: 'pipeline',
          activeGuidance: true,
        },
      },
    },
    { executionId: 'exec-1', contextId: CONTEXT, persistence },
  );
}

async function runGuidance(gateway: ScriptedA2aGateway, taskId: string | null = LIVE.taskId) {
  const persistence = readOnly(state(taskId));
  const run = new GuidanceRun(admitted(persistence), {
    gateway,
    persistence,
    clock: new FakeClock(),
    catalogue: new MessageCatalogue(),
    logger: new Logger('GuidanceRunSpec'),
    validate: () => true,
    interruptTtlSeconds: 0,
    cancelTimeoutMs: 1000,
  });
  const events: BaseEvent[] = [];
  for await (const event of run.events()) events.push(event);
  return events;
}

const rpcError = () => {
  throw new JsonRpcTransportError({ jsonrpc: '2.0', id: 1, error: { code: -32603, message: 'no' } });
};

describe('GuidanceRun', () => {
  beforeAll(() => Logger.overrideLogger(false));

  it('sends the newest user message to the live task and ends with RUN_FINISHED, without usage', async () => {
    const gateway = new GuidanceAnswer([
      { task: { id: LIVE.taskId, contextId: CONTEXT, status: { state: 'TASK_STATE_WORKING' } } },
      statusFrame(LIVE, 'TASK_STATE_WORKING'),
    ]);
    const events = await runGuidance(gateway);
    expect(events.map((event) => event.type)).toEqual(['RUN_STARTED', 'RUN_FINISHED']);
    expect(events[1]).toEqual({
      type: 'RUN_FINISHED',
      threadId: 'thread-1',
      runId: 'guide-1',
      outcome: { type: 'success' },
      timestamp: expect.any(Number),
    });
    expect(gateway.sentMessages).toEqual([
      expect.objectContaining({
        messageId: 'm-guide',
        taskId: LIVE.taskId,
        parts: [{ text: 'prefer one zone' }],
      }),
    ]);
    expect(gateway.cancelledTaskIds).toEqual([]);
  });

  it.each([
    {
      name: 'another task',
      answer: [statusFrame({ ...LIVE, taskId: 'task-other' }, 'TASK_STATE_WORKING')],
      code: 'A2A_PROTOCOL_ERROR',
      message: 'The A2A task identity changed unexpectedly.',
    },
    {
      name: 'another context',
      answer: [statusFrame({ ...LIVE, contextId: 'agui-other' }, 'TASK_STATE_WORKING')],
      code: 'A2A_PROTOCOL_ERROR',
      message: 'The A2A context identity changed unexpectedly.',
    },
    {
      name: 'a failed task',
      answer: [statusFrame(LIVE, 'TASK_STATE_FAILED')],
      code: 'A2A_EXECUTION_FAILED',
      message: 'The A2A execution failed.',
    },
    {
      name: 'a cancelled task',
      answer: [statusFrame(LIVE, 'TASK_STATE_CANCELED')],
      code: 'CANCELLED',
      message: 'The execution was cancelled.',
    },
    {
      name: 'a JSON-RPC error',
      answer: rpcError,
      code: 'A2A_UNAVAILABLE',
      message: 'The local A2A execution service rejected the interrupt response.',
    },
    {
      name: 'an HTTP error',
      answer: () => {
        throw new UpstreamHttpError(500);
      },
      code: 'A2A_UNAVAILABLE',
      message: 'The local A2A execution service is unavailable.',
    },
  ])('ends with RUN_ERROR $code on $name, cancelling nothing', async ({ answer, code, message }) => {
    const gateway = new GuidanceAnswer(answer as readonly A2aFrame[] | (() => never));
    const events = await runGuidance(gateway);
    expect(events.map((event) => event.type)).toEqual(['RUN_STARTED', 'RUN_ERROR']);
    expect(events[1]).toEqual({ type: 'RUN_ERROR', code, message, timestamp: expect.any(Number) });
    expect(gateway.cancelledTaskIds).toEqual([]);
  });

  it('ends with EXECUTION_LOST and sends nothing when the task is gone by the time it starts', async () => {
    const gateway = new GuidanceAnswer([]);
    const events = await runGuidance(gateway, null);
    expect(events[1]).toMatchObject({ type: 'RUN_ERROR', code: 'EXECUTION_LOST' });
    expect(gateway.sentMessages).toEqual([]);
  });
});
