import type { A2aPart } from '../wire/a2a-wire';
import { AguiError } from '../common/agui-error';
import { ErrorCode } from '../common/error-code';
import { isWireObject, nonEmptyString } from '../wire/wire-value';
import type { PersistedInput } from './pending-interrupt';
import { isPythonTruthy, pythonStr } from './python-coercion';
import { isPermission } from './response-schemas';
import type { PlannedAnswer } from './resume-plan';

/** A TOOL_CALL_RESULT to emit for an answered question tool, once A2A has accepted the answer (docs/behaviour/interrupts.md#forwarding-answers). */
export interface SyntheticToolResult {
  toolCallId: string;
  content: string;
}

/** One planned answer in the form A2A takes it (docs/behaviour/interrupts.md#forwarding-answers). */
export type EncodedAnswer =
  | {
      kind: 'permission';
      interruptId: string;
      digest: string;
      /** A concurrent Pipeline wait: answered with a non-streaming SendMessage when all answers are. */
      sideband: boolean;
      /** The exact DataPart the kernel accepts (kernel-wire "Permission answers are checked strictly"). */
      part: A2aPart;
    }
  | {
      kind: 'prompt';
      interruptId: string;
      digest: string;
      text: string;
      syntheticToolResult?: SyntheticToolResult;
    }
  /** A cancelled question: CancelTask, clear pending, execution terminal, RUN_ERROR CANCELLED (docs/behaviour/interrupts.md#forwarding-answers). */
  | { kind: 'cancel-execution'; interruptId: string };

/**
 * Encodes one answer (docs/behaviour/interrupts.md#forwarding-answers `_apply_resume`). Permissions become the strict DataPart —
 * `cancelled` was already turned into `deny` by `planResume`; questions become prompt text. Throws
 * `AguiError(RESUME_PAYLOAD_INVALID, 'responseWithoutAnswer')` when a question's answer has no text.
 */
export function encodeAnswer(answer: PlannedAnswer, taskId: string): EncodedAnswer {
  const value = answer.entry.value;
  if (isPermission(value)) {
    const payload = isWireObject(answer.payload) ? answer.payload : {};
    return {
      kind: 'permission',
      interruptId: answer.interruptId,
      digest: answer.digest,
      sideband: answer.entry.sideband,
      part: {
        data: {
          schemaVersion: 1,
          kind: 'permission',
          requestTaskId: taskId,
          inputId: answer.interruptId,
          // `str(value.get("toolUseId"))` in the original; the kernel checks it against its own wait.
          toolUseId: pythonStr(value.toolUseId),
          decision: answer.status === 'cancelled' ? 'deny' : pythonStr(payload.decision),
        },
        mediaType: 'application/json',
      },
    };
  }
  if (answer.status === 'cancelled') return { kind: 'cancel-execution', interruptId: answer.interruptId };
  const text = resumeText(value, answer.payload);
  if (text === '') throw new AguiError(ErrorCode.RESUME_PAYLOAD_INVALID, 'responseWithoutAnswer');
  const toolCallId = nonEmptyString(value.toolUseId);
  return {
    kind: 'prompt',
    interruptId: answer.interruptId,
    digest: answer.digest,
    text,
    ...(toolCallId === undefined ? {} : { syntheticToolResult: { toolCallId, content: text } }),
  };
}

/**
 * Encodes the answers in resume order, as the original walks them: the first failing question throws,
 * and a cancelled question stops the walk — it cancels the whole execution, so later answers are moot.
 */
export function encodeAnswers(answers: readonly PlannedAnswer[], taskId: string): EncodedAnswer[] {
  const encoded: EncodedAnswer[] = [];
  for (const answer of answers) {
    const item = encodeAnswer(answer, taskId);
    encoded.push(item);
    if (item.kind === 'cancel-execution') break;
  }
  return encoded;
}

/**
 * The text a question's answer is sent as (the original's `resume_value`): `freeText` (or `free_text`) if
 * non-empty; else the label (`label` || `name` || id) of the raw option whose `id` string-equals
 * `selectedId` (or `selected_id`); else the raw `selectedId`; else `''`. Raw options, not standard ones, as
 * in the original: an option whose id was derived (position, `candidate_index`, `-2` suffix) is sent as
 * the id the client chose.
 */
export function resumeText(value: PersistedInput, payload: unknown): string {
  if (!isWireObject(payload)) return '';
  const freeText = [payload.freeText, payload.free_text].find(isPythonTruthy);
  if (typeof freeText === 'string' && freeText !== '') return freeText;
  const selectedId = [payload.selectedId, payload.selected_id].find(isPythonTruthy);
  if (typeof selectedId !== 'string' || selectedId === '') return '';
  const options = Array.isArray(value.options) ? value.options : [];
  for (const option of options) {
    if (!isWireObject(option) || pythonStr(option.id) !== selectedId) continue;
    const label = [option.label, option.name].find(isPythonTruthy) ?? option.id;
    return pythonStr(label);
  }
  return selectedId;
}
