import { DEMO_FRAME_PAUSE_MS, pacedFrames } from './demo-turn-script';
import { statusFrame } from './kernel-frames';
import { inputRequiredFrame } from './kernel-inputs';
import type {
  KernelAnswer,
  KernelFrame,
  KernelInputValue,
  KernelScript,
  KernelStep,
  KernelTurnInput,
} from './kernel-script';
import { pipelineEnvelope, pipelineFrame, type PipelineEnvelopeSpec } from './pipeline-envelopes';
import { scriptFlagsOf } from './script-flags';

/**
 * How the stream of the selection's answer ends (docs/behaviour/interrupts.md#continuation): after a
 * WORKING frame, at INPUT_REQUIRED without any input, or at INPUT_REQUIRED re-announcing only the input
 * that was just answered. None of them ends the turn: the Pipeline goes on.
 */
export const SELECTION_BOUNDARIES = ['working', 'empty-input', 'consumed-input'] as const;
export type SelectionBoundary = (typeof SELECTION_BOUNDARIES)[number];

/**
 * What the task does after that boundary, seen only by a subscription: a new
 * selection input, completion, failure, or nothing (the subscription ends and the task just waits).
 */
export const SELECTION_CONTINUATIONS = ['input', 'completed', 'failed', 'eof'] as const;
export type SelectionContinuation = (typeof SELECTION_CONTINUATIONS)[number];

/** The quiet time between the boundary and the continuation: the gateway subscribes meanwhile. */
export const CONTINUATION_DELAY_MS = 300;

export const SELECTION_OPTIONS = [
  { id: 'candidate-a', label: 'Candidate A' },
  { id: 'candidate-b', label: 'Candidate B' },
] as const;

const STEP = { id: 'select', runId: 'select-run-1' };

/** The flags of `pipeline-selection <boundary> <continuation>`; defaults `working`, `completed`. */
export function selectionVariantOf(userText: string): {
  boundary: SelectionBoundary;
  continuation: SelectionContinuation;
} {
  const flags = scriptFlagsOf(userText);
  return {
    boundary: SELECTION_BOUNDARIES.find((name) => flags.includes(name)) ?? 'working',
    continuation: SELECTION_CONTINUATIONS.find((name) => flags.includes(name)) ?? 'completed',
  };
}

/**
 * A Pipeline that stops for a candidate selection (an option question answered with text, docs/behaviour/interrupts.md#forwarding-answers
 * "Other questions"), then — after the answer's stream ended at a non-terminal boundary — continues on
 * its own (docs/behaviour/interrupts.md#continuation): the native continuation a gateway observes with one SubscribeToTask.
 */
export const PIPELINE_SELECTION_SCRIPT: KernelScript = {
  name: 'pipeline-selection',
  steps(input: KernelTurnInput): readonly KernelStep[] {
    const { boundary, continuation } = selectionVariantOf(input.userText);
    const pipelineRunId = `${input.taskId}-pipeline`;
    let sequence = 0;
    const envelope = (spec: PipelineEnvelopeSpec) => pipelineEnvelope(input, pipelineRunId, ++sequence, spec);
    const inStep = (eventType: string, data: Record<string, unknown> = {}): KernelFrame =>
      pipelineFrame(input, envelope({ eventType, scope: 'step', step: STEP, data }));
    const selection = selectionInput(input, 'selection-1', 'Which candidate should be deployed?');
    const next = selectionInput(input, 'next-selection', 'Which region should it be deployed to?', [
      { id: 'cn-hangzhou', label: 'Hangzhou' },
      { id: 'cn-beijing', label: 'Beijing' },
    ]);

    const boundaryStep = (): KernelStep => {
      if (boundary === 'working') return { kind: 'fault', fault: { kind: 'end-stream' } };
      const waiting = boundary === 'consumed-input' ? { input: selection } : {};
      return { kind: 'frame', frame: inputRequiredFrame(input, waiting) };
    };
    const completes = (): KernelFrame[] => [
      inStep('step_completed'),
      pipelineFrame(
        input,
        envelope({ eventType: 'pipeline_completed', scope: 'pipeline', data: { status: 'completed' } }),
      ),
      statusFrame(input, 'TASK_STATE_COMPLETED'),
    ];
    const continues = (): KernelStep[] => {
      switch (continuation) {
        case 'input':
          return [
            {
              kind: 'await',
              inputIds: [next.inputId],
              parkFrame: inputRequiredFrame(input, { input: next }),
              resume: () => pacedFrames(completes(), DEMO_FRAME_PAUSE_MS),
            },
          ];
        case 'completed':
          return pacedFrames(completes(), DEMO_FRAME_PAUSE_MS);
        case 'failed':
          return pacedFrames(
            [
              pipelineFrame(
                input,
                envelope({
                  eventType: 'pipeline_error',
                  scope: 'pipeline',
                  data: { message: 'Deploy failed.' },
                }),
              ),
              statusFrame(input, 'TASK_STATE_FAILED'),
            ],
            DEMO_FRAME_PAUSE_MS,
          );
        case 'eof':
          // The subscription ends with nothing decided; the task waits until it is cancelled.
          return [
            { kind: 'fault', fault: { kind: 'end-stream' } },
            { kind: 'park', answersCancel: true },
          ];
      }
    };
    const afterAnswer = (answer: KernelAnswer): KernelStep[] => [
      ...pacedFrames(
        [inStep('input_received', { inputId: answer.inputId }), textOf(input, answer)],
        DEMO_FRAME_PAUSE_MS,
      ),
      boundaryStep(),
      { kind: 'pause', ms: CONTINUATION_DELAY_MS },
      ...continues(),
    ];

    return [
      ...pacedFrames(
        [
          pipelineFrame(
            input,
            envelope({ eventType: 'pipeline_started', scope: 'pipeline', data: { pipelineRunId } }),
          ),
          inStep('step_started', { title: 'Select a candidate' }),
        ],
        DEMO_FRAME_PAUSE_MS,
      ),
      {
        kind: 'await',
        inputIds: [selection.inputId],
        parkFrame: inputRequiredFrame(input, { input: selection }),
        resume: afterAnswer,
      },
    ];
  },
};

function selectionInput(
  input: KernelTurnInput,
  inputId: string,
  prompt: string,
  options: readonly { id: string; label: string }[] = SELECTION_OPTIONS,
): KernelInputValue {
  return {
    schemaVersion: 1,
    kind: 'candidate_selection',
    requestTaskId: input.taskId,
    contextId: input.contextId,
    inputId,
    toolUseId: `${input.taskId}-${inputId}-tool`,
    prompt,
    options: options.map((option) => ({ ...option })),
    allowFreeText: false,
    required: true,
  };
}

/** The agent's acknowledgement of the choice, as kernel text. */
function textOf(input: KernelTurnInput, answer: KernelAnswer): KernelFrame {
  const choice = answer.kind === 'text' ? answer.text : answer.decision;
  return statusFrame(input, 'TASK_STATE_WORKING', { text: `Deploying ${choice}. ` });
}
