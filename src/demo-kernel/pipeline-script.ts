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
import { scriptFlagsOf } from './script-flags';

/** B's text after A's permission: the line the two-candidate scenario looks for once the gateway resumes. */
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

/** `pipeline unattended`: no permission; candidate A's tool runs at once. */
export const PIPELINE_UNATTENDED_FLAG = 'unattended';
/**
 * `pipeline top-permission`: A's permission is a direct one of the top-level Pipeline, in `input` on an
 * INPUT_REQUIRED frame that ends the stream, answered by a streaming message.
 */
export const PIPELINE_TOP_PERMISSION_FLAG = 'top-permission';
/**
 * `pipeline slow-finish`: the frames after the answer start only after `SLOW_FINISH_MS`, so the task is
 * still WORKING when the gateway takes its snapshot right after a sideband answer.
 */
export const PIPELINE_SLOW_FINISH_FLAG = 'slow-finish';
/**
 * `pipeline unattended await-guidance`: after B finishes, the Pipeline waits (WORKING) for a guidance
 * message on its task, says so in candidate A's text (`GUIDANCE_APPLIED_PREFIX` + the guidance), and then
 * finishes: a guidance run's message visibly reaches the live Pipeline.
 */
export const PIPELINE_AWAIT_GUIDANCE_FLAG = 'await-guidance';
export const GUIDANCE_APPLIED_PREFIX = 'Candidate A follows the guidance: ';
export const SLOW_FINISH_MS = 250;

/**
 * A small Pipeline (docs/behaviour/events.md#pipeline-envelopes): one step, two parallel candidates whose `text_delta`
 * envelopes interleave, and a permission inside candidate A that travels sideband, in
 * `pendingPermissions` on a WORKING frame, while B keeps streaming and finishes. The turn keeps running
 * until A's permission is answered (a sideband `SendMessage`), then A, the step and the Pipeline finish
 * and the task completes. Sequences number every envelope from 1. Flags: `PIPELINE_UNATTENDED_FLAG`,
 * `PIPELINE_TOP_PERMISSION_FLAG`, `PIPELINE_SLOW_FINISH_FLAG`, `PIPELINE_AWAIT_GUIDANCE_FLAG`.
 */
export const PIPELINE_SCRIPT: KernelScript = {
  name: 'pipeline',
  steps(input: KernelTurnInput): readonly KernelStep[] {
    const flags = scriptFlagsOf(input.userText);
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
    const isTopLevel = flags.includes(PIPELINE_TOP_PERMISSION_FLAG);
    const permission = permissionInput(input, {
      ...shellPermissionSpec(toolUseId),
      title: 'Run a local check for candidate A',
      // A direct permission of the top-level Pipeline carries no sub-pipeline identity (docs/behaviour/events.md#unwrapping-frames).
      extra: isTopLevel
        ? {}
        : { scope: 'candidate', subPipelineId: CANDIDATE_A.candidate.id, candidate: CANDIDATE_A.candidate },
    });

    const opening: KernelFrame[] = [
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
    ];
    const candidateBFinishes = (): KernelFrame[] => [
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
    const finishing = (answer: KernelAnswer): KernelStep[] => [
      // Goes on at once unless a test armed holds: then the answer's frames wait until the test saw the
      // gateway follow the task (`SubscribeToTask`), so they reach it on the stream on any machine.
      { kind: 'hold' as const },
      ...(flags.includes(PIPELINE_SLOW_FINISH_FLAG) ? [{ kind: 'pause' as const, ms: SLOW_FINISH_MS }] : []),
      ...pacedFrames(afterAnswer(answer), DEMO_FRAME_PAUSE_MS),
    ];

    if (flags.includes(PIPELINE_UNATTENDED_FLAG)) {
      const allowed: KernelAnswer = {
        kind: 'permission',
        inputId: permission.inputId,
        decision: 'allow_once',
      };
      if (!flags.includes(PIPELINE_AWAIT_GUIDANCE_FLAG))
        return pacedFrames(
          [...opening, ...candidateBFinishes(), ...afterAnswer(allowed)],
          DEMO_FRAME_PAUSE_MS,
        );
      const guided = (text: string): KernelFrame[] => [
        single(inCandidate(CANDIDATE_A, 'text_delta', { text: `${GUIDANCE_APPLIED_PREFIX}${text}` })),
        ...afterAnswer(allowed),
      ];
      return [
        ...pacedFrames([...opening, ...candidateBFinishes()], DEMO_FRAME_PAUSE_MS),
        { kind: 'await-guidance', resume: (text) => pacedFrames(guided(text), DEMO_FRAME_PAUSE_MS) },
      ];
    }
    const requested = () =>
      inCandidate(CANDIDATE_A, 'permission_requested', { inputId: permission.inputId, toolUseId });
    if (isTopLevel) {
      // B finishes first; then the direct permission parks the turn and its stream closes.
      return [
        ...pacedFrames([...opening, ...candidateBFinishes()], DEMO_FRAME_PAUSE_MS),
        {
          kind: 'await',
          inputIds: [permission.inputId],
          parkFrame: statusFrame(input, 'TASK_STATE_INPUT_REQUIRED', {
            iacCode: { input: permission, pipeline: requested() },
          }),
          resume: finishing,
        },
      ];
    }
    return [
      ...pacedFrames(
        [
          ...opening,
          sidebandPermissionsFrame(input, [permission], { pipeline: requested() }),
          ...candidateBFinishes(),
        ],
        DEMO_FRAME_PAUSE_MS,
      ),
      { kind: 'await', inputIds: [permission.inputId], resume: finishing },
    ];
  },
};
