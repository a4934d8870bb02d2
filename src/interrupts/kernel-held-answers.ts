import type { ResumeEntry } from '@ag-ui/core';
import type { A2aFrame } from '../wire/a2a-wire';
import { isWireObject } from '../wire/wire-value';
import type { PendingInterruptEntry } from './pending-interrupt';
import { isPermission } from './response-schemas';

/**
 * The ids of the permission answers a task already holds: its history has the user message that carried
 * each one (the answer's DataPart names its input). Pure; `frame` is a GetTask answer (`{task}`).
 */
export function permissionAnswersInHistory(frame: A2aFrame): ReadonlySet<string> {
  const ids = new Set<string>();
  const task = isWireObject(frame.task) ? frame.task : {};
  for (const message of Array.isArray(task.history) ? task.history : []) {
    if (!isWireObject(message) || message.role !== 'ROLE_USER' || !Array.isArray(message.parts)) continue;
    for (const part of message.parts) {
      const data = isWireObject(part) && isWireObject(part.data) ? part.data : undefined;
      if (data?.kind === 'permission' && typeof data.inputId === 'string') ids.add(data.inputId);
    }
  }
  return ids;
}

/**
 * Whether every resume entry answers a pending permission the kernel already took: the gateway stopped
 * after the kernel accepted the answer and before recording it (a crash window), and the client retries.
 * Sending it again would apply it twice, so the caller records it instead. Checked before reconciliation,
 * which may drop such an entry from a finished task. Only permission answers name their input on the wire;
 * a question's text answer cannot be recognised this way and is never counted as taken.
 */
export function isTakenByKernel(
  resume: readonly ResumeEntry[],
  pending: Readonly<Record<string, PendingInterruptEntry>>,
  held: ReadonlySet<string>,
): boolean {
  return (
    resume.length > 0 &&
    resume.every(
      ({ interruptId }) =>
        Object.hasOwn(pending, interruptId) &&
        isPermission(pending[interruptId].value) &&
        held.has(interruptId),
    )
  );
}
