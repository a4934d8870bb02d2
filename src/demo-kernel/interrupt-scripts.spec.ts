import { announcedInputsOf, permissionPrompt } from './kernel-inputs';
import {
  DENIED_TOOL_RESULT,
  PERMISSION_SCRIPT,
  QUESTION_SCRIPT,
  TWO_PERMISSIONS_SCRIPT,
} from './interrupt-scripts';
import type {
  KernelAnswer,
  KernelAwaitStep,
  KernelFrame,
  KernelStep,
  KernelTurnInput,
} from './kernel-script';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

const input: KernelTurnInput = {
  userText: 'permission',
  taskId: 'task-1',
  contextId: 'ctx-1',
  sessionId: 'session-1',
};
const allow = (inputId: string): KernelAnswer => ({ kind: 'permission', inputId, decision: 'allow_once' });
const deny = (inputId: string): KernelAnswer => ({ kind: 'permission', inputId, decision: 'deny' });

/** One label per non-pause step. */
function labelsOf(steps: readonly KernelStep[]): string[] {
  return steps.flatMap((step): string[] => {
    if (step.kind === 'pause') return [];
    if (step.kind === 'await') return [`await:${step.inputIds.join('+')}${step.parkFrame ? ':park' : ''}`];
    if (step.kind !== 'frame') return [step.kind];
    const update = (step.frame as Json).statusUpdate as Json;
    const iacCode = update.metadata.iac_code as Json;
    if (iacCode.assistantFinal) return ['final'];
    if (iacCode.tool) return [`tool:${iacCode.tool.status}`];
    if (update.status.message) return ['text'];
    return [update.status.state];
  });
}

const awaitOf = (steps: readonly KernelStep[]): KernelAwaitStep =>
  steps.find((step): step is KernelAwaitStep => step.kind === 'await')!;
const toolOf = (steps: readonly KernelStep[]): Json =>
  (
    steps.find(
      (step) => step.kind === 'frame' && (step.frame as Json).statusUpdate.metadata.iac_code.tool,
    ) as Json
  ).frame.statusUpdate.metadata.iac_code.tool;
const inputIdsOf = (frame: KernelFrame): string[] =>
  announcedInputsOf(frame).map(({ value, via }) => `${via}:${value.inputId}`);

describe('permissionPrompt', () => {
  it.each([
    { title: 'Run a local shell command', prompt: 'Run a local shell command. Allow once?' },
    { title: 'Delete the stack?', prompt: 'Delete the stack? Allow once?' },
  ])('$title → $prompt', ({ title, prompt }) => expect(permissionPrompt(title)).toBe(prompt));
});

describe('permission script', () => {
  const steps = PERMISSION_SCRIPT.steps(input);
  const wait = awaitOf(steps);

  it('text, tool start, then an await that parks on INPUT_REQUIRED with permission-1 as `input`', () => {
    expect(labelsOf(steps)).toEqual(['text', 'tool:started', 'await:permission-1:park']);
    expect(inputIdsOf(wait.parkFrame!)).toEqual(['input:permission-1']);
    expect((wait.parkFrame as Json).statusUpdate.status).toEqual({ state: 'TASK_STATE_INPUT_REQUIRED' });
  });

  it.each([
    {
      name: 'allow_once',
      answer: allow('permission-1'),
      tool: 'tool:completed',
      result: '/workspace',
      texts: 2,
    },
    { name: 'deny', answer: deny('permission-1'), tool: 'tool:failed', result: DENIED_TOOL_RESULT, texts: 1 },
  ])('$name: the tool outcome, text, then the kernel end of turn', ({ answer, tool, result, texts }) => {
    const resumed = wait.resume(answer);
    expect(labelsOf(resumed)).toEqual([
      tool,
      ...Array(texts).fill('text'),
      'final',
      'TASK_STATE_INPUT_REQUIRED',
    ]);
    expect(toolOf(resumed)).toMatchObject({ toolUseId: 'task-1-tool-1', name: 'bash', result });
  });
});

describe('question script', () => {
  it('parks on an ask_user_question and echoes the text answer as the tool result', () => {
    const wait = awaitOf(QUESTION_SCRIPT.steps(input));
    expect(inputIdsOf(wait.parkFrame!)).toEqual(['input:question-1']);
    const resumed = wait.resume({ kind: 'text', inputId: 'question-1', text: 'Plan A' });
    expect(toolOf(resumed)).toMatchObject({
      status: 'completed',
      name: 'ask_user_question',
      result: 'Plan A',
    });
    expect(labelsOf(resumed)).toEqual([
      'tool:completed',
      'text',
      'text',
      'final',
      'TASK_STATE_INPUT_REQUIRED',
    ]);
  });
});

describe('two-permissions script', () => {
  const wait = awaitOf(TWO_PERMISSIONS_SCRIPT.steps(input));

  it('announces permission-1 as `input` and permission-2 (candidate scope) in `pendingPermissions`, together', () => {
    expect(wait.inputIds).toEqual(['permission-1', 'permission-2']);
    expect(inputIdsOf(wait.parkFrame!)).toEqual(['input:permission-1', 'pendingPermissions:permission-2']);
    const sideband = announcedInputsOf(wait.parkFrame!)[1].value;
    expect(sideband).toMatchObject({
      scope: 'candidate',
      subPipelineId: 'task-1-sub-pipeline-1',
      toolUseId: 'task-1-tool-2',
    });
  });

  it.each([
    { first: 'permission-1', other: 'permission-2', reannounced: ['pendingPermissions:permission-2'] },
    { first: 'permission-2', other: 'permission-1', reannounced: ['input:permission-1'] },
  ])('answering $first first waits for $other alone, then finishes', ({ first, other, reannounced }) => {
    const afterFirst = wait.resume(allow(first));
    const second = awaitOf(afterFirst);
    expect(labelsOf(afterFirst)).toEqual(['tool:completed', `await:${other}:park`]);
    expect(inputIdsOf(second.parkFrame!)).toEqual(reannounced);
    expect(labelsOf(second.resume(deny(other)))).toEqual([
      'tool:failed',
      'text',
      'final',
      'TASK_STATE_INPUT_REQUIRED',
    ]);
  });
});
