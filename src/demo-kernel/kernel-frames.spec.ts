import { createHash } from 'node:crypto';
import {
  endOfTurnFrames,
  kernelSessionId,
  statusFrame,
  textDeltaFrame,
  thinkingFrame,
  toolFrame,
} from './kernel-frames';

const ids = { taskId: 'task-1', contextId: 'ctx-1', sessionId: 'session-abc' };

describe('kernelSessionId', () => {
  it.each(['ctx-1', 'agui-0123456789abcdef', ''])('is session-<first 12 hex of sha256(%j)>', (contextId) => {
    const hex = createHash('sha256').update(contextId, 'utf8').digest('hex');
    expect(kernelSessionId(contextId)).toBe(`session-${hex.slice(0, 12)}`);
  });

  it('is stable per context and differs between contexts', () => {
    expect(kernelSessionId('a')).toBe(kernelSessionId('a'));
    expect(kernelSessionId('a')).not.toBe(kernelSessionId('b'));
  });
});

describe('frame builders', () => {
  it.each([
    {
      name: 'text delta: WORKING with the kernel message id and role',
      frame: textDeltaFrame(ids, 'Hello'),
      expected: {
        state: 'TASK_STATE_WORKING',
        message: { messageId: 'task-1-message', role: 'ROLE_AGENT', parts: [{ text: 'Hello' }] },
        iacCode: { iacCodeSessionId: 'session-abc' },
      },
    },
    {
      name: 'thinking: raw_thinking metadata, no message',
      frame: thinkingFrame(ids, 'Hmm'),
      expected: {
        state: 'TASK_STATE_WORKING',
        message: undefined,
        iacCode: { iacCodeSessionId: 'session-abc', thinking: { type: 'raw_thinking', text: 'Hmm' } },
      },
    },
    {
      name: 'tool: the tool object under iac_code.tool',
      frame: toolFrame(ids, { status: 'started', toolUseId: 't1', name: 'bash' }),
      expected: {
        state: 'TASK_STATE_WORKING',
        message: undefined,
        iacCode: {
          iacCodeSessionId: 'session-abc',
          tool: { status: 'started', toolUseId: 't1', name: 'bash' },
        },
      },
    },
    {
      name: 'status with its own message id',
      frame: statusFrame(ids, 'TASK_STATE_FAILED', { text: 'No.', messageId: 'task-1-error' }),
      expected: {
        state: 'TASK_STATE_FAILED',
        message: { messageId: 'task-1-error', role: 'ROLE_AGENT', parts: [{ text: 'No.' }] },
        iacCode: { iacCodeSessionId: 'session-abc' },
      },
    },
  ])('$name', ({ frame, expected }) => {
    expect(frame).toEqual({
      statusUpdate: {
        taskId: 'task-1',
        contextId: 'ctx-1',
        status: expected.message
          ? { state: expected.state, message: expected.message }
          : { state: expected.state },
        metadata: { iac_code: expected.iacCode },
      },
    });
  });

  it('end of turn: the whole answer with assistantFinal, then a bare INPUT_REQUIRED', () => {
    expect(endOfTurnFrames(ids, 'Full answer.')).toEqual([
      {
        statusUpdate: {
          taskId: 'task-1',
          contextId: 'ctx-1',
          status: {
            state: 'TASK_STATE_WORKING',
            message: { messageId: 'task-1-message', role: 'ROLE_AGENT', parts: [{ text: 'Full answer.' }] },
          },
          metadata: { iac_code: { iacCodeSessionId: 'session-abc', assistantFinal: { complete: true } } },
        },
      },
      {
        statusUpdate: {
          taskId: 'task-1',
          contextId: 'ctx-1',
          status: { state: 'TASK_STATE_INPUT_REQUIRED' },
          metadata: { iac_code: { iacCodeSessionId: 'session-abc' } },
        },
      },
    ]);
  });
});
