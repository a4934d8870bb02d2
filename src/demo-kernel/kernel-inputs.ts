import { statusFrame } from './kernel-frames';
import type { KernelFrame, KernelInputValue, KernelTurnInput } from './kernel-script';

/**
 * Pure builders for the inputs the kernel asks for, and the frames that carry them (docs/behaviour/a2a.md#the-kernels-own-behaviour
 * "Where inputs travel"; docs/behaviour/interrupts.md#from-input-required-to-interrupts worked example).
 */

type Ids = Pick<KernelTurnInput, 'taskId' | 'contextId' | 'sessionId'>;

export const PERMISSION_OPTIONS = [
  { id: 'allow_once', label: 'Allow once' },
  { id: 'deny', label: 'Deny' },
] as const;

export interface PermissionInputSpec {
  readonly inputId: string;
  readonly toolUseId: string;
  readonly toolName: string;
  readonly title: string;
  readonly purpose: string;
  readonly target: string;
  readonly safeSummary: string;
  /** Sub-pipeline waits add `scope: "candidate"`, `subPipelineId`, … (docs/behaviour/events.md#unwrapping-frames "Sideband ids"). */
  readonly extra?: Readonly<Record<string, unknown>>;
}

/** A permission value with the fields and order of docs/behaviour/interrupts.md#from-input-required-to-interrupts. */
export function permissionInput(ids: Ids, spec: PermissionInputSpec): KernelInputValue {
  return {
    schemaVersion: 1,
    kind: 'permission',
    requestTaskId: ids.taskId,
    contextId: ids.contextId,
    inputId: spec.inputId,
    toolUseId: spec.toolUseId,
    toolName: spec.toolName,
    title: spec.title,
    purpose: spec.purpose,
    effect: 'local_execution',
    target: spec.target,
    isReadOnly: false,
    prompt: permissionPrompt(spec.title),
    safeSummary: spec.safeSummary,
    options: PERMISSION_OPTIONS.map((option) => ({ ...option })),
    required: true,
    ...spec.extra,
  };
}

/**
 * `"<title> Allow once?"` (docs/behaviour/a2a.md#the-kernels-own-behaviour), with the sentence closed first as in the worked example
 * (docs/behaviour/interrupts.md#from-input-required-to-interrupts: "Run a local shell command. Allow once?").
 */
export function permissionPrompt(title: string): string {
  return `${title}${/[.!?]$/.test(title) ? '' : '.'} Allow once?`;
}

export interface QuestionInputSpec {
  readonly inputId: string;
  readonly toolUseId: string;
  readonly prompt: string;
  readonly options: readonly { readonly id: string; readonly label: string }[];
}

/** An `ask_user_question` value: options plus free text, answered with a text message (docs/behaviour/interrupts.md#forwarding-answers). */
export function questionInput(ids: Ids, spec: QuestionInputSpec): KernelInputValue {
  return {
    schemaVersion: 1,
    kind: 'ask_user_question',
    requestTaskId: ids.taskId,
    contextId: ids.contextId,
    inputId: spec.inputId,
    toolUseId: spec.toolUseId,
    prompt: spec.prompt,
    options: spec.options.map((option) => ({ ...option })),
    allowFreeText: true,
    required: true,
  };
}

/**
 * A direct input (`input`) and/or sub-pipeline permissions (`pendingPermissions`) on an INPUT_REQUIRED
 * frame, after which the kernel's stream closes. No `status.message`: the prompt travels in the value.
 */
export function inputRequiredFrame(
  ids: Ids,
  inputs: { input?: KernelInputValue; pendingPermissions?: readonly KernelInputValue[] },
): KernelFrame {
  const iacCode: Record<string, unknown> = {};
  if (inputs.input) iacCode.input = inputs.input;
  if (inputs.pendingPermissions?.length) iacCode.pendingPermissions = inputs.pendingPermissions;
  return statusFrame(ids, 'TASK_STATE_INPUT_REQUIRED', { iacCode });
}

/** Sideband permissions on a WORKING frame: the task keeps running while they wait. */
export function sidebandPermissionsFrame(
  ids: Ids,
  pendingPermissions: readonly KernelInputValue[],
  extra: Readonly<Record<string, unknown>> = {},
): KernelFrame {
  return statusFrame(ids, 'TASK_STATE_WORKING', { iacCode: { ...extra, pendingPermissions } });
}

export type InputRoute = 'input' | 'pendingPermissions';

/** The required inputs a frame announces, with the field they came in (docs/behaviour/events.md#unwrapping-frames "Required inputs"). */
export function announcedInputsOf(frame: KernelFrame): { value: KernelInputValue; via: InputRoute }[] {
  if (!('statusUpdate' in frame)) return [];
  const iacCode = (frame.statusUpdate.metadata as { iac_code?: Record<string, unknown> } | undefined)
    ?.iac_code;
  if (!iacCode) return [];
  const announced: { value: KernelInputValue; via: InputRoute }[] = [];
  if (isRequiredInput(iacCode.input)) announced.push({ value: iacCode.input, via: 'input' });
  const pending = Array.isArray(iacCode.pendingPermissions) ? iacCode.pendingPermissions : [];
  for (const value of pending) {
    if (isRequiredInput(value)) announced.push({ value, via: 'pendingPermissions' });
  }
  return announced;
}

function isRequiredInput(value: unknown): value is KernelInputValue {
  const candidate = value as Partial<KernelInputValue> | null | undefined;
  return (
    typeof candidate === 'object' &&
    candidate !== null &&
    candidate.required === true &&
    typeof candidate.inputId === 'string' &&
    typeof candidate.kind === 'string'
  );
}
