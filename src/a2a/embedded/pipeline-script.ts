import { DEMO_FRAME_PAUSE_MS, pacedFrames } from './demo-turn-script';
import { statusFrame } from './kernel-frames';
import { permissionInput, sidebandPermissionsFrame } from './kernel-inputs';
import type { KernelAnswer, KernelFrame, KernelScript, KernelStep, KernelTurnInput } from './kernel-script';
import {
  pipelineBatchFrame,
  pipelineEnvelope,
  pipelineFrame,
  type PipelineCoordinate,
  type PipelineEnvelope,
  type PipelineEnvelopeSpec,
} from './pipeline-envelopes';
import { DENIED_TOOL_RESULT, shellPermissionSpec } from './interrupt-scripts';

/** B's text after A's permission: the line T-SSE looks for once the gateway resumes (reference §9.4). */
export const CANDIDATE_B_WHILE_WAITING = 'candidate B continued while A waited';

const STEP: PipelineCoordinate = { id: 'generate', runId: 'generate-run-1' };

interface Candidate {
  readonly candidate: PipelineCoordinate;
  readonly candidateStep: PipelineCoordinate;
}

const CANDIDATE_A: Candidate = {
  candidate: { id: 'candidate-a', runId: 'candidate-a-run-1' },
  candidateStep: { id: 'draft', runId: 'candidate-a-draft-1' },
};
const CANDIDATE_B: Candidate = {
  candidate: { id: 'candidate-b', runId: 'candidate-b-run-1' },
  candidateStep: { id: 'draft', runId: 'candidate-b-draft-1' },
};

/**
 * A small Pipeline (reference §4.5, §9.4 T-SSE): one step, two parallel candidates whose `text_delta`
 * envelopes interleave, and a permission inside candidate A that travels sideband, in
 * `pendingPermissions` on a WORKING frame, while B keeps streaming and finishes. The turn keeps running
 * until A's permission is answered (a sideband `SendMessage`), then A, the step and the Pipeline finish
 * and the task completes. Sequences number every envelope from 1.
 */
export const PIPELINE_SCRIPT: KernelScript = {
  name: 'pipeline',
  steps(input: KernelTurnInput): readonly KernelStep[] {
    const pipelineRunId = `${input.taskId}-pipeline`;
    let sequence = 0;
    const envelope = (spec: PipelineEnvelopeSpec): PipelineEnvelope =>
      pipelineEnvelope(input, pipelineRunId, ++sequence, spec);
    const inStep = (eventType: string, data: Record<string, unknown> = {}) =>
      envelope({ eventType, scope: 'step', step: STEP, data });
    const inCandidate = (who: Candidate, eventType: string, data: Record<string, unknown> = {}) =>
      envelope({ eventType, scope: 'candidate', step: STEP, ...who, data });
    const single = (built: PipelineEnvelope): KernelFrame => pipelineFrame(input, built);

    const toolUseId = `${input.taskId}-candidate-a-tool-1`;
    const permission = permissionInput(input, {
      ...shellPermissionSpec(toolUseId),
      title: 'Run a local check for candidate A',
      extra: {
        scope: 'candidate',
        subPipelineId: CANDIDATE_A.candidate.id,
        candidate: CANDIDATE_A.candidate,
      },
    });

    const beforeAnswer: KernelFrame[] = [
      single(
        envelope({
          eventType: 'pipeline_started',
          scope: 'pipeline',
          data: { pipelineRunId, pipelineName: 'vpc' },
        }),
      ),
      single(inStep('step_started', { title: 'Generate the template' })),
      pipelineBatchFrame(input, [
        inCandidate(CANDIDATE_A, 'candidate_step_started'),
        inCandidate(CANDIDATE_B, 'candidate_step_started'),
      ]),
      single(inCandidate(CANDIDATE_A, 'text_delta', { text: 'Candidate A drafts a single-zone VPC. ' })),
      single(inCandidate(CANDIDATE_B, 'text_delta', { text: 'Candidate B drafts a two-zone VPC. ' })),
      single(
        inCandidate(CANDIDATE_A, 'tool_started', { toolUseId, toolName: 'bash', input: { command: 'pwd' } }),
      ),
      sidebandPermissionsFrame(input, [permission], {
        pipeline: inCandidate(CANDIDATE_A, 'permission_requested', {
          inputId: permission.inputId,
          toolUseId,
        }),
      }),
      single(inCandidate(CANDIDATE_B, 'text_delta', { text: CANDIDATE_B_WHILE_WAITING })),
      single(inCandidate(CANDIDATE_B, 'candidate_step_completed')),
    ];
    const afterAnswer = (answer: KernelAnswer): KernelFrame[] => {
      const isAllowed = answer.kind === 'permission' && answer.decision === 'allow_once';
      return [
        single(
          inCandidate(CANDIDATE_A, 'tool_result', {
            toolUseId,
            result: isAllowed ? '/workspace' : DENIED_TOOL_RESULT,
            isError: !isAllowed,
          }),
        ),
        single(
          inCandidate(CANDIDATE_A, 'text_delta', {
            text: isAllowed ? 'Candidate A checked the workspace.' : 'Candidate A skipped its check.',
          }),
        ),
        single(inCandidate(CANDIDATE_A, 'candidate_step_completed')),
        single(inStep('step_completed')),
        single(
          envelope({ eventType: 'pipeline_completed', scope: 'pipeline', data: { status: 'completed' } }),
        ),
        statusFrame(input, 'TASK_STATE_COMPLETED'),
      ];
    };

    return [
      ...pacedFrames(beforeAnswer, DEMO_FRAME_PAUSE_MS),
      {
        kind: 'await',
        inputIds: [permission.inputId],
        resume: (answer) => pacedFrames(afterAnswer(answer), DEMO_FRAME_PAUSE_MS),
      },
    ];
  },
};
