import { AguiError } from '../common/agui-error';
import { ErrorCode } from '../common/error-code';
import { assertStorable } from './thread-state-schema';
import { compareCodePoints } from '../wire/code-point-order';
import {
  PERSISTED_INPUT_FIELDS,
  type AppliedResumeDigest,
  type PendingInterruptEntry,
  type PersistedInput,
} from '../interrupts/pending-interrupt';

export const THREAD_STATE_SCHEMA_VERSION = 1;

export interface ThreadExecution {
  executionId: string;
  rosInvocationId: string;
  /** null when no A2A task is bound or the execution is terminal. */
  taskId: string | null;
  /** Task id of the last execution made terminal (Gen B); null in Gen A files. */
  lastTaskId: string | null;
  pipelineSequence: number;
  /** Sorted and de-duplicated when written. */
  pipelineOpenSteps: string[];
  /** 64 lower-case hex each; sorted and de-duplicated when written. */
  textSnapshotDigests: string[];
  pending: Record<string, PendingInterruptEntry>;
  /**
   * Added by this service: the client's runId of the run that last ended at an interrupt of this execution
   * (a resume may reuse it in generic clients mode). Kept until a new turn rotates the execution.
   */
  interruptedRunId?: string;
  /**
   * Added by this service: why this execution ended, where a later request must know it. `expired`: its
   * interrupts expired (the timer, or a resume that found them expired), so a resume is EXECUTION_EXPIRED
   * however long ago that was and whether or not the process restarted since. Absent while it runs and in
   * files of the Python adapter; a value this version does not know is kept and means nothing here.
   */
  endReason?: string;
}

/** The `endReason` of an execution whose interrupts expired. */
export const END_REASON_EXPIRED = 'expired';

/**
 * One thread's durable state: the Gen B layout of docs/behaviour/state.md#the-document, plus `expiresAt` on pending entries
 * and `agentCoreSessionId` (docs/architecture.md#decisions). Keys this version does not know, found in a
 * loaded file, stay on the objects as extra own properties and are written back: update a state with
 * spreads (`{ ...state, execution: { ...state.execution, taskId } }`), never by rebuilding it field by
 * field, or they are lost.
 */
export interface ThreadState {
  schemaVersion: typeof THREAD_STATE_SCHEMA_VERSION;
  threadId: string;
  /** `agui-` + first 40 hex of sha256(threadId), see `contextIdForThread`. */
  contextId: string;
  /** The resolved workspace of the thread's first request. */
  cwd: string;
  userId: string | null;
  iacCodeSessionId: string | null;
  /** Added by this service: the AgentCore session the thread is bound to (IAC_CODE_AGUI_SESSION_BINDING). */
  agentCoreSessionId?: string | null;
  /**
   * Added by this service: the authenticated caller that opened the thread, the only one that may act on it
   * (docs/behaviour/state.md#caller-binding). Absent or null: opened by an anonymous caller (static token,
   * auth off) or before this field existed; such a thread stays open to every authenticated caller.
   */
  principal?: string | null;
  execution: ThreadExecution;
  /** runId → canonical request digest (docs/behaviour/state.md#digests). */
  runDigests: Record<string, string>;
  /** Sorted by (executionId, interruptId) when written. */
  appliedResumeDigests: AppliedResumeDigest[];
  /** Sorted and de-duplicated when written. */
  terminalExecutionIds: string[];
}

/**
 * Checks a parsed state document as the Python adapter's `_restore_thread_state` does (docs/behaviour/state.md#the-document) and
 * returns a normalised copy: defaults filled in, invalid run-digest entries dropped, pending values cut
 * to the persisted projection, unknown keys kept. Any other defect throws
 * `AguiError(STATE_UNAVAILABLE)`: a damaged file blocks its own thread only, never the service.
 */
export function validateThreadState(doc: unknown, threadId: string): ThreadState {
  const root = requireRecord(doc);
  if (root.schemaVersion !== THREAD_STATE_SCHEMA_VERSION) invalid();
  if (requireText(root, 'threadId') !== threadId) invalid();
  const execution = requireRecord(root.execution);
  return {
    ...root,
    schemaVersion: THREAD_STATE_SCHEMA_VERSION,
    threadId,
    contextId: requireText(root, 'contextId'),
    cwd: requireText(root, 'cwd'),
    userId: optionalText(root, 'userId'),
    iacCodeSessionId: optionalText(root, 'iacCodeSessionId'),
    ...('agentCoreSessionId' in root ? { agentCoreSessionId: optionalText(root, 'agentCoreSessionId') } : {}),
    ...('principal' in root ? { principal: optionalText(root, 'principal') } : {}),
    execution: validateExecution(execution),
    runDigests: validRunDigests(requireRecord(root.runDigests)),
    appliedResumeDigests: requireArray(root.appliedResumeDigests).map(validateAppliedDigest),
    // Python keeps only non-empty strings here and drops the rest silently.
    terminalExecutionIds: requireArray(root.terminalExecutionIds).filter(isNonEmptyString),
  };
}

/**
 * The file text of a state (docs/behaviour/state.md#the-document): keys sorted by code point at every level, 2-space indent, non-ASCII
 * kept, NaN refused, trailing newline — what Python's `json.dumps(sort_keys=True, indent=2,
 * ensure_ascii=False)` writes. Set-like arrays are sorted and de-duplicated, as the Python adapter
 * holds them in sets. Written by hand because `JSON.stringify` puts integer-like keys (a runId "10")
 * first regardless of order. A string over its bound (docs/behaviour/bounds.md) is refused, never written.
 */
export function serializeThreadState(state: ThreadState): string {
  assertStorable(state);
  const execution = state.execution;
  const document = {
    ...state,
    execution: {
      ...execution,
      pipelineOpenSteps: sortedUnique(execution.pipelineOpenSteps),
      textSnapshotDigests: sortedUnique(execution.textSnapshotDigests),
    },
    appliedResumeDigests: sortedAppliedDigests(state.appliedResumeDigests),
    terminalExecutionIds: sortedUnique(state.terminalExecutionIds),
  };
  return `${formatJson(document, '')}\n`;
}

function validateExecution(execution: Record<string, unknown>): ThreadExecution {
  const sequence = execution.pipelineSequence ?? 0;
  if (typeof sequence !== 'number' || !Number.isSafeInteger(sequence) || sequence < 0) invalid();
  const openSteps = requireArray(execution.pipelineOpenSteps ?? []);
  if (!openSteps.every(isNonEmptyString)) invalid();
  const textDigests = requireArray(execution.textSnapshotDigests ?? []);
  if (!textDigests.every((value) => typeof value === 'string' && /^[0-9a-f]{64}$/.test(value))) invalid();
  const pending = requireRecord(execution.pending ?? {});
  return {
    ...execution,
    executionId: requireText(execution, 'executionId'),
    rosInvocationId: requireText(execution, 'rosInvocationId'),
    taskId: optionalText(execution, 'taskId'),
    lastTaskId: optionalText(execution, 'lastTaskId'),
    pipelineSequence: sequence,
    pipelineOpenSteps: openSteps as string[],
    textSnapshotDigests: textDigests as string[],
    pending: Object.fromEntries(
      Object.entries(pending).map(([id, entry]) => [id, validatePending(id, entry)]),
    ),
  };
}

function validatePending(inputId: string, raw: unknown): PendingInterruptEntry {
  const entry = requireRecord(raw);
  const value = requireRecord(entry.value);
  const sideband = entry.sideband ?? false;
  if (typeof sideband !== 'boolean') invalid();
  const projection = Object.fromEntries(
    Object.entries(value).filter(([key]) => PERSISTED_INPUT_FIELDS.has(key)),
  );
  if (projection.inputId !== inputId) invalid();
  if (
    'expiresAt' in entry &&
    (typeof entry.expiresAt !== 'string' || Number.isNaN(Date.parse(entry.expiresAt)))
  )
    invalid();
  return { ...entry, value: projection as PersistedInput, sideband };
}

function validateAppliedDigest(raw: unknown): AppliedResumeDigest {
  const entry = requireRecord(raw);
  return {
    ...entry,
    executionId: requireText(entry, 'executionId'),
    interruptId: requireText(entry, 'interruptId'),
    digest: requireText(entry, 'digest'),
  };
}

function validRunDigests(raw: Record<string, unknown>): Record<string, string> {
  // Invalid entries are dropped, not fatal (docs/behaviour/state.md#the-document), exactly as the Python adapter does.
  return Object.fromEntries(
    Object.entries(raw).filter(
      (entry): entry is [string, string] => entry[0] !== '' && isNonEmptyString(entry[1]),
    ),
  );
}

function sortedUnique(values: readonly string[]): string[] {
  return [...new Set(values)].sort(compareCodePoints);
}

/** One entry per (executionId, interruptId), the last one winning, like the Python adapter's dict. */
function sortedAppliedDigests(values: readonly AppliedResumeDigest[]): AppliedResumeDigest[] {
  const byKey = new Map(values.map((entry) => [`${entry.executionId}\u0000${entry.interruptId}`, entry]));
  return [...byKey.values()].sort(
    (a, b) =>
      compareCodePoints(a.executionId, b.executionId) || compareCodePoints(a.interruptId, b.interruptId),
  );
}

function formatJson(value: unknown, indent: string): string {
  if (value === null || typeof value === 'boolean' || typeof value === 'string') return JSON.stringify(value);
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) throw new AguiError(ErrorCode.STATE_UNAVAILABLE, 'stateUnavailable');
    return JSON.stringify(value);
  }
  const inner = `${indent}  `;
  if (Array.isArray(value)) {
    if (value.length === 0) return '[]';
    return `[\n${value.map((item) => `${inner}${formatJson(item, inner)}`).join(',\n')}\n${indent}]`;
  }
  if (typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>).filter(([, item]) => item !== undefined);
    if (entries.length === 0) return '{}';
    entries.sort(([a], [b]) => compareCodePoints(a, b));
    const lines = entries.map(([key, item]) => `${inner}${JSON.stringify(key)}: ${formatJson(item, inner)}`);
    return `{\n${lines.join(',\n')}\n${indent}}`;
  }
  throw new AguiError(ErrorCode.STATE_UNAVAILABLE, 'stateUnavailable');
}

function requireRecord(value: unknown): Record<string, unknown> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) invalid();
  return value as Record<string, unknown>;
}

function requireArray(value: unknown): unknown[] {
  if (!Array.isArray(value)) invalid();
  return value;
}

function requireText(record: Record<string, unknown>, key: string): string {
  const value = record[key];
  if (!isNonEmptyString(value)) invalid();
  return value;
}

function optionalText(record: Record<string, unknown>, key: string): string | null {
  const value = record[key] ?? null;
  if (value !== null && typeof value !== 'string') invalid();
  return value;
}

function isNonEmptyString(value: unknown): value is string {
  return typeof value === 'string' && value.length > 0;
}

function invalid(): never {
  throw new AguiError(ErrorCode.STATE_UNAVAILABLE, 'stateUnavailable');
}
