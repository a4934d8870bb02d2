import type { KernelAnswer, KernelInputValue } from './kernel-script';
import { isWireObject } from '../wire/wire-value';

/** What a task is waiting for, as the answer check sees it. */
export interface PendingInputsView {
  readonly taskId: string;
  readonly contextId: string;
  /** Inputs announced and not answered yet. */
  readonly values: readonly KernelInputValue[];
}

export type AnswerVerdict =
  { readonly ok: true; readonly answer: KernelAnswer } | { readonly ok: false; readonly reason: string };

/** The data keys of a permission answer, exactly (docs/behaviour/interrupts.md#forwarding-answers). */
export const PERMISSION_ANSWER_KEYS: readonly string[] = [
  'schemaVersion',
  'kind',
  'requestTaskId',
  'inputId',
  'toolUseId',
  'decision',
];

const DECISIONS = new Set(['allow_once', 'deny']);

type WireMessage = {
  readonly role?: unknown;
  readonly taskId?: unknown;
  readonly contextId?: unknown;
  readonly parts?: unknown;
};
type WirePart = Readonly<Record<string, unknown>>;

/**
 * Checks a message sent to a task that waits for input, as strictly as the kernel (docs/behaviour/a2a.md#the-kernels-own-behaviour
 * "Permission answers are checked strictly"): a permission answer is exactly one DataPart with
 * `mediaType: "application/json"` whose data has exactly the keys of `PERMISSION_ANSWER_KEYS`, from
 * `ROLE_USER`, with the message `taskId` equal to `requestTaskId` and matching context and tool use. A
 * question is answered with text (docs/behaviour/interrupts.md#forwarding-answers "prompt path"). Anything else is refused; the
 * transport answers `-32602` with the reason.
 */
export function checkKernelAnswer(message: unknown, pending: PendingInputsView): AnswerVerdict {
  const wire = (typeof message === 'object' && message !== null ? message : {}) as WireMessage;
  if (wire.role !== 'ROLE_USER') return refuse('the answer must come from ROLE_USER');
  if (wire.taskId !== pending.taskId) return refuse('the message taskId is not the waiting task');
  if (wire.contextId !== pending.contextId) return refuse('the message contextId does not match the task');
  const parts = Array.isArray(wire.parts) ? (wire.parts as unknown[]) : [];
  if (parts.length === 0) return refuse('the answer has no parts');
  if (parts.some((part) => isWireObject(part) && 'data' in part))
    return checkPermission(wire, parts, pending);
  return checkText(parts, pending);
}

function checkPermission(wire: WireMessage, parts: unknown[], pending: PendingInputsView): AnswerVerdict {
  if (parts.length !== 1) return refuse('a permission answer must be exactly one part');
  const part = parts[0] as WirePart;
  if (part.mediaType !== 'application/json') return refuse('the DataPart mediaType must be application/json');
  if ('text' in part || 'raw' in part || 'url' in part) return refuse('the part must be a DataPart only');
  const data = part.data;
  if (!isWireObject(data)) return refuse('the DataPart data must be an object');
  const keys = Object.keys(data).sort();
  if (keys.join(',') !== [...PERMISSION_ANSWER_KEYS].sort().join(','))
    return refuse(`the data keys must be exactly ${PERMISSION_ANSWER_KEYS.join(', ')}`);
  if (data.schemaVersion !== 1) return refuse('schemaVersion must be 1');
  if (data.kind !== 'permission') return refuse('kind must be permission');
  if (data.requestTaskId !== wire.taskId) return refuse('requestTaskId must equal the message taskId');
  const value = pending.values.find((input) => input.kind === 'permission' && input.inputId === data.inputId);
  if (!value) return refuse('inputId is not a pending permission of this task');
  if (data.toolUseId !== value.toolUseId) return refuse('toolUseId does not match the permission');
  if (typeof data.decision !== 'string' || !DECISIONS.has(data.decision))
    return refuse('decision must be allow_once or deny');
  return {
    ok: true,
    answer: { kind: 'permission', inputId: value.inputId, decision: data.decision as 'allow_once' | 'deny' },
  };
}

function checkText(parts: unknown[], pending: PendingInputsView): AnswerVerdict {
  const question = pending.values.find((input) => input.kind !== 'permission');
  if (!question) return refuse('a permission answer must be one application/json DataPart');
  const texts = parts.map((part) => (isWireObject(part) ? part.text : undefined));
  if (!texts.every((text): text is string => typeof text === 'string'))
    return refuse('a question answer must be text parts only');
  const text = texts.join('').trim();
  if (text === '') return refuse('the question answer is empty');
  return { ok: true, answer: { kind: 'text', inputId: question.inputId, text } };
}

function refuse(reason: string): AnswerVerdict {
  return { ok: false, reason };
}
