import { kernelSessionId } from './kernel-frames';
import type { PendingKernelInputs } from './pending-kernel-inputs';

/**
 * A waiting task's snapshot shows what it waits for in `metadata.iac_code`, as the kernel's does; the SDK's
 * task store keeps only the status, not the update's metadata (docs/behaviour/interrupts.md#resume-preparation
 * step 5). The task is the `result` of GetTask and `result.task` of SendMessage; any other answer is returned
 * as it is.
 */
export function withWaitingInputs(inputs: PendingKernelInputs, method: string, answer: unknown): unknown {
  const result = (answer as { result?: Record<string, unknown> } | undefined)?.result;
  if (method === 'GetTask' && result)
    return { ...(answer as object), result: taskWithInputs(inputs, result) };
  if (method === 'SendMessage' && result?.task)
    return { ...(answer as object), result: { ...result, task: taskWithInputs(inputs, result.task) } };
  return answer;
}

function taskWithInputs(inputs: PendingKernelInputs, task: unknown): unknown {
  const wire = task as
    | { id?: unknown; contextId?: unknown; status?: { state?: unknown }; metadata?: Record<string, unknown> }
    | undefined;
  const waiting =
    typeof wire?.id === 'string' ? inputs.snapshotInputsOf(wire.id, wire.status?.state) : undefined;
  if (!wire || !waiting) return task;
  const iacCode = {
    ...(wire.metadata?.iac_code as Record<string, unknown> | undefined),
    iacCodeSessionId: kernelSessionId(String(wire.contextId ?? '')),
    ...waiting,
  };
  return { ...wire, metadata: { ...wire.metadata, iac_code: iacCode } };
}
