import { announcedInputsOf } from './kernel-inputs';
import type { KernelAwaitStep, KernelFrame, KernelStep, KernelTurnInput } from './kernel-script';
import { pipelineEnvelopesOf } from './pipeline-envelopes';
import {
  CONTINUATION_DELAY_MS,
  PIPELINE_SELECTION_SCRIPT,
  selectionVariantOf,
  type SelectionBoundary,
  type SelectionContinuation,
} from './pipeline-selection-script';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

const inputFor = (userText: string): KernelTurnInput => ({
  userText,
  taskId: 'task-1',
  contextId: 'ctx-1',
  sessionId: 'session-1',
});
const answer = { kind: 'text', inputId: 'selection-1', text: 'Candidate B' } as const;

/** One label per step: `frame:<state>[:inputs][:envelope types]`, `pause:<ms>`, `fault:<kind>`, … */
function labelOf(step: KernelStep): string {
  if (step.kind === 'pause') return `pause:${step.ms}`;
  if (step.kind === 'fault') return `fault:${step.fault.kind}`;
  if (step.kind === 'park') return 'park';
  if (step.kind === 'await') return `await:${step.inputIds.join('+')}`;
  if (step.kind === 'await-guidance') return 'await-guidance';
  if (step.kind === 'hold') return 'hold';
  const frame: KernelFrame = step.frame;
  const state = String((frame as Json).statusUpdate.status.state).replace('TASK_STATE_', '');
  const inputs = announcedInputsOf(frame).map((input) => input.value.inputId);
  const types = pipelineEnvelopesOf(frame).map((envelope) => envelope.eventType);
  return [`frame:${state}`, ...inputs, ...types].join(':');
}

/** The steps after the answer, without the demo pacing. */
function afterAnswer(userText: string): string[] {
  const steps = PIPELINE_SELECTION_SCRIPT.steps(inputFor(userText));
  const wait = steps[steps.length - 1] as KernelAwaitStep;
  return wait
    .resume(answer)
    .map(labelOf)
    .filter((label) => label !== 'pause:25');
}

describe('pipeline-selection script', () => {
  it('parks at INPUT_REQUIRED with a candidate selection after the step started', () => {
    const steps = PIPELINE_SELECTION_SCRIPT.steps(inputFor('pipeline-selection'));
    const wait = steps[steps.length - 1] as KernelAwaitStep;
    expect(wait.inputIds).toEqual(['selection-1']);
    const [announced] = announcedInputsOf(wait.parkFrame as KernelFrame);
    expect(announced.value).toMatchObject({
      kind: 'candidate_selection',
      inputId: 'selection-1',
      requestTaskId: 'task-1',
      options: [
        { id: 'candidate-a', label: 'Candidate A' },
        { id: 'candidate-b', label: 'Candidate B' },
      ],
    });
  });

  it.each([
    { boundary: 'working', expected: 'fault:end-stream' },
    { boundary: 'empty-input', expected: 'frame:INPUT_REQUIRED' },
    { boundary: 'consumed-input', expected: 'frame:INPUT_REQUIRED:selection-1' },
  ] as { boundary: SelectionBoundary; expected: string }[])(
    '$boundary boundary: the answer’s stream ends with $expected, then a quiet pause',
    ({ boundary, expected }) => {
      const steps = afterAnswer(`pipeline-selection ${boundary} completed`);
      expect(steps.slice(0, 4)).toEqual([
        'frame:WORKING:input_received',
        'frame:WORKING',
        expected,
        `pause:${CONTINUATION_DELAY_MS}`,
      ]);
    },
  );

  it.each([
    { continuation: 'input', expected: ['await:next-selection'] },
    {
      continuation: 'completed',
      expected: ['frame:WORKING:step_completed', 'frame:WORKING:pipeline_completed', 'frame:COMPLETED'],
    },
    { continuation: 'failed', expected: ['frame:WORKING:pipeline_error', 'frame:FAILED'] },
    { continuation: 'eof', expected: ['fault:end-stream', 'park'] },
  ] as { continuation: SelectionContinuation; expected: string[] }[])(
    'continuation $continuation',
    ({ continuation, expected }) => {
      expect(afterAnswer(`pipeline-selection working ${continuation}`).slice(4)).toEqual(expected);
    },
  );

  it('the new input of the `input` continuation parks on INPUT_REQUIRED and completes once answered', () => {
    const steps = PIPELINE_SELECTION_SCRIPT.steps(inputFor('pipeline-selection working input'));
    const resumed = (steps[steps.length - 1] as KernelAwaitStep).resume(answer);
    const next = resumed[resumed.length - 1] as KernelAwaitStep;
    expect(announcedInputsOf(next.parkFrame as KernelFrame).map((input) => input.value.inputId)).toEqual([
      'next-selection',
    ]);
    const done = next.resume({ kind: 'text', inputId: 'next-selection', text: 'Hangzhou' }).map(labelOf);
    expect(done[done.length - 1]).toBe('frame:COMPLETED');
  });

  it.each([
    { text: 'pipeline-selection', expected: { boundary: 'working', continuation: 'completed' } },
    {
      text: 'pipeline-selection EOF empty-input',
      expected: { boundary: 'empty-input', continuation: 'eof' },
    },
    {
      text: 'pipeline-selection consumed-input failed x',
      expected: { boundary: 'consumed-input', continuation: 'failed' },
    },
  ])('flags of "$text"', ({ text, expected }) => {
    expect(selectionVariantOf(text)).toEqual(expected);
  });
});
