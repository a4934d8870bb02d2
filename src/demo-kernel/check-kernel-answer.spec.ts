import { checkKernelAnswer, type PendingInputsView } from './check-kernel-answer';
import { permissionInput, questionInput } from './kernel-inputs';
import { shellPermissionSpec } from './interrupt-scripts';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

const ids = { taskId: 'task-1', contextId: 'ctx-1', sessionId: 'session-1' };
const permission = permissionInput(ids, shellPermissionSpec('tool-1'));
const question = questionInput(ids, {
  inputId: 'question-1',
  toolUseId: 'tool-q',
  prompt: 'Which plan?',
  options: [{ id: 'plan-a', label: 'Plan A' }],
});
const waitingForPermission: PendingInputsView = {
  taskId: 'task-1',
  contextId: 'ctx-1',
  values: [permission],
};
const waitingForQuestion: PendingInputsView = { taskId: 'task-1', contextId: 'ctx-1', values: [question] };

/** The exact answer the gateway sends (docs/behaviour/interrupts.md#forwarding-answers), changed by `change`. */
function answer(change: (message: Json) => void = () => undefined): Json {
  const message: Json = {
    messageId: 'm-1',
    role: 'ROLE_USER',
    taskId: 'task-1',
    contextId: 'ctx-1',
    parts: [
      {
        data: {
          schemaVersion: 1,
          kind: 'permission',
          requestTaskId: 'task-1',
          inputId: 'permission-1',
          toolUseId: 'tool-1',
          decision: 'allow_once',
        },
        mediaType: 'application/json',
      },
    ],
  };
  change(message);
  return message;
}

describe('checkKernelAnswer: permissions', () => {
  it.each([
    { name: 'allow_once', change: () => undefined, decision: 'allow_once' },
    { name: 'deny', change: (m: Json) => (m.parts[0].data.decision = 'deny'), decision: 'deny' },
  ])('accepts the exact answer ($name)', ({ change, decision }) => {
    expect(checkKernelAnswer(answer(change), waitingForPermission)).toEqual({
      ok: true,
      answer: { kind: 'permission', inputId: 'permission-1', decision },
    });
  });

  it.each([
    { name: 'agent role', change: (m: Json) => (m.role = 'ROLE_AGENT'), reason: /ROLE_USER/ },
    { name: 'no taskId', change: (m: Json) => delete m.taskId, reason: /taskId/ },
    { name: 'other context', change: (m: Json) => (m.contextId = 'ctx-2'), reason: /contextId/ },
    { name: 'no parts', change: (m: Json) => (m.parts = []), reason: /no parts/ },
    { name: 'two parts', change: (m: Json) => m.parts.push({ text: 'x' }), reason: /exactly one part/ },
    { name: 'no mediaType', change: (m: Json) => delete m.parts[0].mediaType, reason: /mediaType/ },
    { name: 'also text', change: (m: Json) => (m.parts[0].text = 'x'), reason: /DataPart only/ },
    { name: 'array data', change: (m: Json) => (m.parts[0].data = []), reason: /must be an object/ },
    { name: 'extra key', change: (m: Json) => (m.parts[0].data.note = 'x'), reason: /keys must be exactly/ },
    { name: 'missing key', change: (m: Json) => delete m.parts[0].data.kind, reason: /keys must be exactly/ },
    {
      name: 'schemaVersion "1"',
      change: (m: Json) => (m.parts[0].data.schemaVersion = '1'),
      reason: /schemaVersion/,
    },
    { name: 'kind', change: (m: Json) => (m.parts[0].data.kind = 'ask'), reason: /kind must be permission/ },
    {
      name: 'requestTaskId',
      change: (m: Json) => (m.parts[0].data.requestTaskId = 'x'),
      reason: /requestTaskId/,
    },
    {
      name: 'inputId',
      change: (m: Json) => (m.parts[0].data.inputId = 'x'),
      reason: /not a pending permission/,
    },
    { name: 'toolUseId', change: (m: Json) => (m.parts[0].data.toolUseId = 'x'), reason: /toolUseId/ },
    { name: 'decision', change: (m: Json) => (m.parts[0].data.decision = 'allow'), reason: /decision/ },
    { name: 'text only', change: (m: Json) => (m.parts = [{ text: 'allow_once' }]), reason: /DataPart/ },
  ])('refuses $name', ({ change, reason }) => {
    const verdict = checkKernelAnswer(answer(change), waitingForPermission);
    expect(verdict.ok).toBe(false);
    expect(!verdict.ok && verdict.reason).toMatch(reason);
  });

  it('refuses a permission answer to a task that waits only for a question', () => {
    expect(checkKernelAnswer(answer(), waitingForQuestion)).toEqual({
      ok: false,
      reason: 'inputId is not a pending permission of this task',
    });
  });
});

describe('checkKernelAnswer: questions', () => {
  const text = (parts: Json[]): Json => ({ ...answer(), parts });

  it('accepts text parts, joined and trimmed', () => {
    expect(checkKernelAnswer(text([{ text: ' Plan' }, { text: ' A ' }]), waitingForQuestion)).toEqual({
      ok: true,
      answer: { kind: 'text', inputId: 'question-1', text: 'Plan A' },
    });
  });

  it.each([
    { name: 'blank text', parts: [{ text: '  ' }], reason: /empty/ },
    { name: 'a URL part', parts: [{ url: 'https://x', mediaType: 'text/plain' }], reason: /text parts only/ },
    { name: 'text and a URL', parts: [{ text: 'a' }, { url: 'https://x' }], reason: /text parts only/ },
  ])('refuses $name', ({ parts, reason }) => {
    const verdict = checkKernelAnswer(text(parts), waitingForQuestion);
    expect(!verdict.ok && verdict.reason).toMatch(reason);
  });
});
