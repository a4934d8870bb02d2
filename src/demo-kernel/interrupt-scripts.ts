import { DEMO_FRAME_PAUSE_MS, pacedFrames } from './demo-turn-script';
import { endOfTurnFrames, textDeltaFrame, toolFrame } from './kernel-frames';
import { scriptFlagsOf } from './script-flags';
import {
  inputRequiredFrame,
  permissionInput,
  questionInput,
  type PermissionInputSpec,
} from './kernel-inputs';
import type {
  KernelAnswer,
  KernelFrame,
  KernelInputValue,
  KernelScript,
  KernelStep,
  KernelTurnInput,
} from './kernel-script';

/**
 * Scripts that stop for the user the way the kernel does (docs/behaviour/a2a.md#the-kernels-own-behaviour): a
 * direct permission or question on an INPUT_REQUIRED frame that closes the stream, answered by a new
 * message on the same task (docs/behaviour/interrupts.md#forwarding-answers). Ids are per task and deterministic.
 */

const paced = (frames: readonly KernelFrame[]): KernelStep[] => pacedFrames(frames, DEMO_FRAME_PAUSE_MS);

/** `permission slow-resume`: the turn after the answer takes seconds, like a tool that runs a while. */
const SLOW_RESUME_PAUSE_MS = 1000;

/** The default permission of the original's tests. */
export function shellPermissionSpec(toolUseId: string, inputId = 'permission-1'): PermissionInputSpec {
  return {
    inputId,
    toolUseId,
    toolName: 'bash',
    title: 'Run a local shell command',
    purpose: 'Execute a command for this task.',
    target: 'the current workspace',
    safeSummary: 'bash: pwd',
  };
}

export const DENIED_TOOL_RESULT = 'Permission denied: the user did not allow this command.';

/** The tool's outcome once its permission is decided: its result, or a denial text. */
function permissionOutcomeFrame(
  input: KernelTurnInput,
  toolUseId: string,
  answer: KernelAnswer,
  result: string,
) {
  const isAllowed = answer.kind === 'permission' && answer.decision === 'allow_once';
  return toolFrame(input, {
    status: isAllowed ? 'completed' : 'failed',
    toolUseId,
    name: 'bash',
    result: isAllowed ? result : DENIED_TOOL_RESULT,
  });
}

/** Text deltas, then the kernel's end of turn repeating them. */
function finishTurn(input: KernelTurnInput, deltas: readonly string[]): KernelFrame[] {
  return [...deltas.map((text) => textDeltaFrame(input, text)), ...endOfTurnFrames(input, deltas.join(''))];
}

/** Text and a `bash` tool start, then INPUT_REQUIRED with the permission; allow runs it, deny does not. */
export const PERMISSION_SCRIPT: KernelScript = {
  name: 'permission',
  steps(input: KernelTurnInput): readonly KernelStep[] {
    const toolUseId = `${input.taskId}-tool-1`;
    const permission = permissionInput(input, shellPermissionSpec(toolUseId));
    return [
      ...paced([
        textDeltaFrame(input, 'I will check the workspace first. '),
        toolFrame(input, { status: 'started', toolUseId, name: 'bash' }),
      ]),
      {
        kind: 'await',
        inputIds: [permission.inputId],
        parkFrame: inputRequiredFrame(input, { input: permission }),
        resume: (answer) =>
          pacedFrames(
            [
              permissionOutcomeFrame(input, toolUseId, answer, '/workspace'),
              ...finishTurn(
                input,
                answer.kind === 'permission' && answer.decision === 'allow_once'
                  ? ['The command ran. ', 'The workspace is /workspace.']
                  : ['I did not run the command, as you asked.'],
              ),
            ],
            scriptFlagsOf(input.userText).includes('slow-resume')
              ? SLOW_RESUME_PAUSE_MS
              : DEMO_FRAME_PAUSE_MS,
          ),
      },
    ];
  },
};

export const QUESTION_OPTIONS = [
  { id: 'plan-a', label: 'Plan A' },
  { id: 'plan-b', label: 'Plan B' },
] as const;

/** An `ask_user_question` on INPUT_REQUIRED; the text answer is the tool's result and is echoed. */
export const QUESTION_SCRIPT: KernelScript = {
  name: 'question',
  steps(input: KernelTurnInput): readonly KernelStep[] {
    const toolUseId = `${input.taskId}-tool-1`;
    const question = questionInput(input, {
      inputId: 'question-1',
      toolUseId,
      prompt: 'Which plan should I use?',
      options: QUESTION_OPTIONS,
    });
    return [
      ...paced([
        textDeltaFrame(input, 'There are two ways to build this network. '),
        toolFrame(input, { status: 'started', toolUseId, name: 'ask_user_question' }),
      ]),
      {
        kind: 'await',
        inputIds: [question.inputId],
        parkFrame: inputRequiredFrame(input, { input: question }),
        resume: (answer) => {
          const text = answer.kind === 'text' ? answer.text : answer.decision;
          return paced([
            toolFrame(input, { status: 'completed', toolUseId, name: 'ask_user_question', result: text }),
            ...finishTurn(input, [`You chose: ${text}. `, 'I will continue with it.']),
          ]);
        },
      },
    ];
  },
};

/**
 * A direct permission (`input`) and a sub-pipeline one (`pendingPermissions`, `scope: "candidate"`) on
 * one INPUT_REQUIRED frame. Each answer completes its tool; while the other still waits the turn
 * ends again at INPUT_REQUIRED re-announcing only that one, unless its answer already arrived (a
 * sideband `SendMessage` while this turn ran). The turn finishes when both are answered.
 */
export const TWO_PERMISSIONS_SCRIPT: KernelScript = {
  name: 'two-permissions',
  steps(input: KernelTurnInput): readonly KernelStep[] {
    const direct = permissionInput(input, shellPermissionSpec(`${input.taskId}-tool-1`));
    const sideband = permissionInput(input, {
      ...shellPermissionSpec(`${input.taskId}-tool-2`, 'permission-2'),
      title: 'Run a check for candidate A',
      safeSummary: 'bash: ls',
      extra: { scope: 'candidate', subPipelineId: `${input.taskId}-sub-pipeline-1` },
    });
    const permissions = [direct, sideband];
    const outcome = (answer: KernelAnswer): KernelFrame => {
      const value = permissions.find((permission) => permission.inputId === answer.inputId) ?? direct;
      return permissionOutcomeFrame(input, value.toolUseId as string, answer, `${value.inputId} done`);
    };
    const announce = (waiting: readonly KernelInputValue[]): KernelFrame =>
      inputRequiredFrame(input, {
        input: waiting.find((value) => value === direct),
        pendingPermissions: waiting.filter((value) => value === sideband),
      });
    return [
      ...paced([
        textDeltaFrame(input, 'Two checks need your approval. '),
        toolFrame(input, { status: 'started', toolUseId: direct.toolUseId as string, name: 'bash' }),
        toolFrame(input, { status: 'started', toolUseId: sideband.toolUseId as string, name: 'bash' }),
      ]),
      {
        kind: 'await',
        inputIds: permissions.map((value) => value.inputId),
        parkFrame: announce(permissions),
        resume: (first) => {
          const other = permissions.filter((value) => value.inputId !== first.inputId);
          return [
            ...paced([outcome(first)]),
            {
              kind: 'await',
              inputIds: other.map((value) => value.inputId),
              parkFrame: announce(other),
              resume: (second) =>
                paced([outcome(second), ...finishTurn(input, ['Both checks are decided.'])]),
            },
          ];
        },
      },
    ];
  },
};
