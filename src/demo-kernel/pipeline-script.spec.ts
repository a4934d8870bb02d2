import { announcedInputsOf } from './kernel-inputs';
import type { KernelAwaitStep, KernelFrame, KernelStep, KernelTurnInput } from './kernel-script';
import { pipelineEnvelopesOf } from './pipeline-envelopes';
import { CANDIDATE_B_WHILE_WAITING, PIPELINE_SCRIPT } from './pipeline-script';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

const input: KernelTurnInput = {
  userText: 'pipeline',
  taskId: 'task-1',
  contextId: 'ctx-1',
  sessionId: 'session-1',
};
const framesOf = (steps: readonly KernelStep[]): KernelFrame[] =>
  steps.flatMap((step) => (step.kind === 'frame' ? [step.frame] : []));

describe('pipeline script', () => {
  const steps = PIPELINE_SCRIPT.steps(input);
  const wait = steps[steps.length - 1] as KernelAwaitStep;
  const before = framesOf(steps);
  const after = framesOf(
    wait.resume({ kind: 'permission', inputId: 'permission-1', decision: 'allow_once' }),
  );
  const envelopes = [...before, ...after].flatMap(pipelineEnvelopesOf);

  it('numbers envelopes 1…15 without gaps, each with a unique eventId and the session id', () => {
    expect(envelopes.map((envelope) => envelope.sequence)).toEqual(
      Array.from({ length: 15 }, (_, i) => i + 1),
    );
    expect(new Set(envelopes.map((envelope) => envelope.eventId)).size).toBe(15);
    expect(envelopes.every((envelope) => envelope.iacCodeSessionId === 'session-1')).toBe(true);
    expect(envelopes[0]).toMatchObject({
      eventType: 'pipeline_started',
      scope: 'pipeline',
      data: { pipelineRunId: 'task-1-pipeline' },
    });
    expect(envelopes[14]).toMatchObject({ eventType: 'pipeline_completed', scope: 'pipeline' });
  });

  it('waits for A sideband, without a park frame, after the WORKING frame that announces it; B then finishes', () => {
    expect(wait).toMatchObject({ kind: 'await', inputIds: ['permission-1'] });
    expect(wait.parkFrame).toBeUndefined();
    const announcing = before.filter((frame) => announcedInputsOf(frame).length > 0);
    expect(announcing).toHaveLength(1);
    expect((announcing[0] as Json).statusUpdate.status.state).toBe('TASK_STATE_WORKING');
    expect(announcedInputsOf(announcing[0])).toEqual([
      {
        via: 'pendingPermissions',
        value: expect.objectContaining({
          inputId: 'permission-1',
          scope: 'candidate',
          subPipelineId: 'candidate-a',
        }),
      },
    ]);
    const afterAnnounce = before.slice(before.indexOf(announcing[0]) + 1).flatMap(pipelineEnvelopesOf);
    expect(afterAnnounce.map((envelope) => [envelope.eventType, (envelope.candidate as Json).id])).toEqual([
      ['text_delta', 'candidate-b'],
      ['candidate_step_completed', 'candidate-b'],
    ]);
    expect(afterAnnounce[0].data).toEqual({ text: CANDIDATE_B_WHILE_WAITING });
  });

  it('after the answer: A finishes, the step and the Pipeline complete, and the task completes', () => {
    expect(after.flatMap(pipelineEnvelopesOf).map((envelope) => envelope.eventType)).toEqual([
      'tool_result',
      'text_delta',
      'candidate_step_completed',
      'step_completed',
      'pipeline_completed',
    ]);
    expect((after[after.length - 1] as Json).statusUpdate.status.state).toBe('TASK_STATE_COMPLETED');
  });

  it('a denial reaches candidate A as an error tool result', () => {
    const denied = framesOf(wait.resume({ kind: 'permission', inputId: 'permission-1', decision: 'deny' }));
    expect(pipelineEnvelopesOf(denied[0])[0].data).toMatchObject({ isError: true });
  });
});
