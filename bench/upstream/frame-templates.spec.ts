import { BURST_DELTA_TEXT, BURST_FRAMES_PER_WRITE, FrameTemplates } from './frame-templates';

const identity = { requestId: 'request-7', taskId: 'task-1', contextId: 'context-1' };

/** Every `data:` record of a kernel-framed (CRLF CRLF) text, parsed. */
function envelopes(text: string): { id: unknown; result: Record<string, Record<string, unknown>> }[] {
  expect(text.endsWith('\r\n\r\n')).toBe(true);
  return text
    .slice(0, -4)
    .split('\r\n\r\n')
    .map((record) => {
      expect(record.startsWith('data: ')).toBe(true);
      return JSON.parse(record.slice(6));
    });
}

describe('FrameTemplates', () => {
  const frames = new FrameTemplates(identity);

  it('opens with task SUBMITTED then statusUpdate SUBMITTED, echoing the request id and context', () => {
    const [task, status] = envelopes(frames.opening.toString());
    expect(task).toMatchObject({
      id: 'request-7',
      result: { task: { id: 'task-1', contextId: 'context-1' } },
    });
    expect(status.result.statusUpdate).toMatchObject({
      taskId: 'task-1',
      contextId: 'context-1',
      status: { state: 'TASK_STATE_SUBMITTED' },
    });
  });

  it('a burst chunk is BURST_FRAMES_PER_WRITE identical text deltas', () => {
    const deltas = envelopes(frames.burstChunk.toString());
    expect(deltas).toHaveLength(BURST_FRAMES_PER_WRITE);
    expect(deltas[0].result.statusUpdate.status).toEqual({
      state: 'TASK_STATE_WORKING',
      message: { messageId: 'task-1-message', role: 'ROLE_AGENT', parts: [{ text: BURST_DELTA_TEXT }] },
    });
  });

  it('a paced delta carries its write and schedule stamps in the text', () => {
    const [delta] = envelopes(frames.pacedDelta(1700000000000123, 1700000000000100));
    const status = delta.result.statusUpdate.status as { message: { parts: { text: string }[] } };
    expect(status.message.parts[0].text).toBe('ts=1700000000000123 s=1700000000000100 ');
  });

  it('closes with the assistantFinal repeat, then INPUT_REQUIRED', () => {
    const [final, inputRequired] = envelopes(frames.closing.toString());
    expect(final.result.statusUpdate.metadata).toMatchObject({
      iac_code: { assistantFinal: { complete: true } },
    });
    expect(inputRequired.result.statusUpdate.status).toEqual({ state: 'TASK_STATE_INPUT_REQUIRED' });
  });
});
