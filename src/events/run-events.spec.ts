import { EventType } from '@ag-ui/core';
import { expectConformantEvents } from '../../test/support/agui-conformance';
import { runError, runFinished, runStarted, sessionEvent } from './run-events';

const NOW = 1_700_000_000_000;
const RUN = { threadId: 'thread-1', runId: 'run-1' };
const USAGE = [
  { provider: 'p', model: 'm', inputTokens: 1, outputTokens: 2, totalTokens: 3, cachedInputTokens: 0 },
];

describe('run events', () => {
  it.each([
    {
      name: 'RUN_STARTED without a parent run',
      event: runStarted(RUN, undefined, NOW),
      expected: { type: EventType.RUN_STARTED, threadId: 'thread-1', runId: 'run-1', timestamp: NOW },
    },
    {
      name: 'RUN_STARTED with a parent run',
      event: runStarted(RUN, 'run-0', NOW),
      expected: {
        type: EventType.RUN_STARTED,
        threadId: 'thread-1',
        runId: 'run-1',
        parentRunId: 'run-0',
        timestamp: NOW,
      },
    },
    {
      name: 'RUN_FINISHED without usage',
      event: runFinished(RUN, undefined, NOW),
      expected: {
        type: EventType.RUN_FINISHED,
        threadId: 'thread-1',
        runId: 'run-1',
        outcome: { type: 'success' },
        timestamp: NOW,
      },
    },
    {
      name: 'RUN_FINISHED with usage',
      event: runFinished(RUN, USAGE, NOW),
      expected: {
        type: EventType.RUN_FINISHED,
        threadId: 'thread-1',
        runId: 'run-1',
        outcome: { type: 'success' },
        usage: USAGE,
        timestamp: NOW,
      },
    },
    {
      name: 'RUN_ERROR is exactly type, code, message, timestamp',
      event: runError('CANCELLED', 'The execution was cancelled.', undefined, NOW),
      expected: {
        type: EventType.RUN_ERROR,
        code: 'CANCELLED',
        message: 'The execution was cancelled.',
        timestamp: NOW,
      },
    },
    {
      name: 'RUN_ERROR with usage',
      event: runError('A2A_EXECUTION_FAILED', 'The A2A execution failed.', USAGE, NOW),
      expected: {
        type: EventType.RUN_ERROR,
        code: 'A2A_EXECUTION_FAILED',
        message: 'The A2A execution failed.',
        usage: USAGE,
        timestamp: NOW,
      },
    },
  ])('$name', ({ event, expected }) => {
    expect(event).toStrictEqual(expected);
  });

  it('builds the session event with null task and session ids inside value only', async () => {
    const event = sessionEvent(
      {
        threadId: 'thread-1',
        aguiRunId: 'run-1',
        executionId: 'exec-1',
        contextId: 'agui-abc',
        taskId: null,
        rosInvocationId: 'inv-1',
        sessionId: null,
      },
      NOW,
    );
    expect(event).toStrictEqual({
      type: EventType.CUSTOM,
      name: 'iac-code.session.v1',
      value: {
        schemaVersion: 1,
        threadId: 'thread-1',
        aguiRunId: 'run-1',
        executionId: 'exec-1',
        contextId: 'agui-abc',
        taskId: null,
        rosInvocationId: 'inv-1',
        sessionId: null,
      },
      timestamp: NOW,
    });
    expect(Object.keys(event.value as object)).toEqual([
      'schemaVersion',
      'threadId',
      'aguiRunId',
      'executionId',
      'contextId',
      'taskId',
      'rosInvocationId',
      'sessionId',
    ]);
    await expectConformantEvents([runStarted(RUN, 'run-0', NOW), event, runFinished(RUN, USAGE, NOW)]);
  });

  it('ends a run with RUN_ERROR conformantly, usage included', async () => {
    await expectConformantEvents([runStarted(RUN, undefined, NOW), runError('CANCELLED', 'm', USAGE, NOW)]);
  });
});
