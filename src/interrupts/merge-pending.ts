import { AguiError } from '../common/agui-error';
import { ErrorCode } from '../common/error-code';
import { ifDefined } from '../wire/wire-value';
import type { PendingInterruptEntry } from './pending-interrupt';
import { inputIdOf, projectInput } from './project-input';
import { isPythonTruthy } from './python-coercion';

export interface MergePendingContext {
  /** The task the execution is bound to; an input naming another task is a protocol error. */
  boundTaskId?: string;
  /** The thread's A2A context (`agui-…`). */
  contextId: string;
  /** Ids the frame exposes as concurrent Pipeline waits (`sidebandInputIds` of the unwrapped frame). */
  sidebandIds: ReadonlySet<string>;
  /** Ids already answered in this execution (applied digests): ignored, never pending again (docs/behaviour/interrupts.md#from-input-required-to-interrupts). */
  answeredIds: ReadonlySet<string>;
  /** `expiresAt` for entries added now (Gen A TTL, `expiresAtFor`); undefined when the TTL is 0. */
  expiresAt?: string;
  /** Start from an empty set instead of `current` (a snapshot that replaces, docs/behaviour/interrupts.md#resume-preparation step 5). */
  replace?: boolean;
}

export interface MergedPending {
  pending: Record<string, PendingInterruptEntry>;
  /** Ids that were not pending before, in input order. */
  added: string[];
}

/**
 * The original's `_merge_pending` (docs/behaviour/interrupts.md#from-input-required-to-interrupts): every input must belong to the bound task and
 * context (else `A2A_PROTOCOL_ERROR`); a known entry is kept as it is — value, interrupt and `expiresAt`
 * unchanged — except that its `sideband` flag can go from false to true; a new entry is stored
 * as the persisted projection. Returns new objects and never mutates `current` or `inputs`, so a caller
 * that fails to persist still holds the old state.
 */
export function mergePending(
  current: Readonly<Record<string, PendingInterruptEntry>>,
  inputs: readonly Record<string, unknown>[],
  context: MergePendingContext,
): MergedPending {
  const pending: Record<string, PendingInterruptEntry> = context.replace ? {} : { ...current };
  const added: string[] = [];
  for (const input of inputs) {
    const id = inputIdOf(input);
    // An accepted answer is authoritative even when a later frame still shows its wait (docs/behaviour/interrupts.md#from-input-required-to-interrupts).
    if (context.answeredIds.has(id)) continue;
    checkIdentity(input, context);
    const isSideband = context.sidebandIds.has(id);
    const known = current[id];
    if (known) {
      pending[id] = isSideband && !known.sideband ? { ...known, sideband: true } : known;
      continue;
    }
    pending[id] = {
      value: projectInput(input),
      sideband: isSideband,
      ...ifDefined('expiresAt', context.expiresAt),
    };
    if (!added.includes(id)) added.push(id);
  }
  return { pending, added };
}

function checkIdentity(input: Record<string, unknown>, context: MergePendingContext): void {
  if (isPythonTruthy(input.requestTaskId) && input.requestTaskId !== context.boundTaskId) {
    throw new AguiError(ErrorCode.A2A_PROTOCOL_ERROR, 'interruptOtherTask');
  }
  if (isPythonTruthy(input.contextId) && input.contextId !== context.contextId) {
    throw new AguiError(ErrorCode.A2A_PROTOCOL_ERROR, 'interruptOtherContext');
  }
}
