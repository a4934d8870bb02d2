import { announcedInputsOf } from './kernel-inputs';
import type { KernelAwaitStep, KernelFrame, KernelStep, KernelTurnInput } from './kernel-script';
import { pipelineEnvelopesOf } from './pipeline-envelopes';
import { CANDIDATE_B_WHILE_WAITING, PIPELINE_SCRIPT, SLOW_FINISH_MS } from './pipeline-script';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

const inputFor = (userText: string): KernelTurnInput => ({
  userText,
  taskId: 'task-1',
  contextId: 'ctx-1',
  sessionId: 'session-1',
});
const framesOf = (steps: readonly KernelStep[]): KernelFrame[] =>
  steps.flatMap((step) => (step.kind === 'frame' ? [step.frame] : []));
const stateOf = (frame: KernelFrame): string => (frame as Json).statusUpdate.status.state;
const labelsOf = (frames: readonly KernelFrame[]): string[] =>
  frames.flatMap(pipelineEnvelopesOf).map((envelope) => `${envelope.sequence}:${envelope.eventType}`);
const allow = { kind: 'permission', inputId: 'permission-1', decision: 'allow_once' } as const;

describe('pipeline script variants (flags after the keyword)', () => {
  it('unattended: no input at all; A’s tool runs at once and the task completes after 14 envelopes', () => {
    const steps = PIPELINE_SCRIPT.steps(inputFor('pipeline unattended'));
    expect(steps.some((step) => step.kind === 'await')).toBe(false);
    const frames = framesOf(steps);
    expect(frames.flatMap(announcedInputsOf)).toEqual([]);
    expect(labelsOf(frames)).toEqual([
      '1:pipeline_started',
      '2:step_started',
      '3:candidate_step_started',
      '4:candidate_step_started',
      '5:text_delta',
      '6:text_delta',
      '7:tool_started',
      '8:text_delta',
      '9:candidate_step_completed',
      '10:tool_result',
      '11:text_delta',
      '12:candidate_step_completed',
      '13:step_completed',
      '14:pipeline_completed',
    ]);
    expect(stateOf(frames[frames.length - 1])).toBe('TASK_STATE_COMPLETED');
  });

  it('top-permission: B finishes, then a direct permission parks the turn on INPUT_REQUIRED', () => {
    const steps = PIPELINE_SCRIPT.steps(inputFor('pipeline top-permission'));
    const wait = steps[steps.length - 1] as KernelAwaitStep;
    const before = framesOf(steps);
    expect(before.flatMap(announcedInputsOf)).toEqual([]);
    expect(labelsOf(before).slice(-2)).toEqual(['8:text_delta', '9:candidate_step_completed']);
    expect(pipelineEnvelopesOf(before[before.length - 2])[0].data).toEqual({
      text: CANDIDATE_B_WHILE_WAITING,
    });
    const park = wait.parkFrame as KernelFrame;
    expect(stateOf(park)).toBe('TASK_STATE_INPUT_REQUIRED');
    const [announced] = announcedInputsOf(park);
    expect(announced.via).toBe('input');
    // A top-level permission carries no sub-pipeline identity, so it is not sideband (docs/behaviour/events.md#unwrapping-frames).
    expect(announced.value).not.toHaveProperty('scope');
    expect(announced.value).not.toHaveProperty('subPipelineId');
    expect(labelsOf([park])).toEqual(['10:permission_requested']);
    const after = framesOf(wait.resume(allow));
    expect(labelsOf(after)[0]).toBe('11:tool_result');
    expect(stateOf(after[after.length - 1])).toBe('TASK_STATE_COMPLETED');
  });

  it('slow-finish: the answer’s frames start only after a pause; the default has none', () => {
    const waitOf = (text: string) => {
      const steps = PIPELINE_SCRIPT.steps(inputFor(text));
      return steps[steps.length - 1] as KernelAwaitStep;
    };
    // Both start with a hold (it goes on at once unless a test armed holds).
    expect(waitOf('pipeline slow-finish').resume(allow).slice(0, 2)).toEqual([
      { kind: 'hold' },
      { kind: 'pause', ms: SLOW_FINISH_MS },
    ]);
    expect(waitOf('pipeline').resume(allow)[0]).toEqual({ kind: 'hold' });
    expect(waitOf('pipeline').resume(allow)[1]).not.toEqual({ kind: 'pause', ms: SLOW_FINISH_MS });
    expect(waitOf('pipeline slow-finish').parkFrame).toBeUndefined();
  });
});
