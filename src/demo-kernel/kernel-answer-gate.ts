import { checkKernelAnswer } from './check-kernel-answer';
import type { KernelAnswer } from './kernel-script';
import type { PendingKernelInputs, PermissionReceipt } from './pending-kernel-inputs';

const MESSAGE_METHODS = new Set(['SendStreamingMessage', 'SendMessage']);

export type AnswerGateDecision =
  /** Not a message to a waiting task: the SDK serves it as usual. */
  | { readonly kind: 'pass' }
  /** Refused before any stream: JSON-RPC -32602 with this message (docs/behaviour/a2a.md#the-kernels-own-behaviour). */
  | { readonly kind: 'reject'; readonly message: string }
  /** Accepted; a turn already runs on the task (a sideband wait), so the transport hands the answer over itself. */
  | { readonly kind: 'running-turn'; readonly taskId: string; readonly answer: KernelAnswer }
  /** Accepted; the task is parked at INPUT_REQUIRED, so the SDK starts the turn that continues it. */
  | { readonly kind: 'new-turn'; readonly taskId: string; readonly answer: KernelAnswer }
  /**
   * The same decision again for a permission already answered: the kernel acknowledges it with one
   * `inputReceived` frame marked `duplicate` and applies nothing.
   */
  | { readonly kind: 'duplicate'; readonly taskId: string; readonly receipt: PermissionReceipt };

/**
 * Looks at a JSON-RPC call before the SDK does: a message whose `taskId` names a task that waits for
 * input must be a valid answer to it. The SDK would append anything to the task's history and run it.
 */
export function gateKernelAnswer(rpc: unknown, inputs: PendingKernelInputs): AnswerGateDecision {
  const { method, params } = (rpc ?? {}) as { method?: unknown; params?: { message?: { taskId?: unknown } } };
  if (typeof method !== 'string' || !MESSAGE_METHODS.has(method)) return { kind: 'pass' };
  const message = params?.message;
  const taskId = message?.taskId;
  if (typeof taskId !== 'string' || taskId === '') return { kind: 'pass' };
  const repeat = repeatedPermission(message, taskId, inputs);
  if (repeat) return repeat;
  const pending = inputs.viewOf(taskId);
  if (!pending) return { kind: 'pass' };
  const verdict = checkKernelAnswer(message, pending);
  if (!verdict.ok) return invalidParams(verdict.reason);
  return { kind: inputs.accept(taskId, verdict.answer), taskId, answer: verdict.answer };
}

/**
 * An answer to a permission that was already answered: checked as strictly as the first one, then the
 * same decision is a duplicate and another one is refused, as the kernel's permission receipts do.
 */
function repeatedPermission(
  message: unknown,
  taskId: string,
  inputs: PendingKernelInputs,
): AnswerGateDecision | undefined {
  const parts = (message as { parts?: unknown }).parts;
  const data = Array.isArray(parts) && parts.length === 1 ? (parts[0] as { data?: unknown }).data : undefined;
  const receipt = inputs.receiptOf(taskId, (data as { inputId?: unknown } | undefined)?.inputId);
  if (!receipt) return undefined;
  const verdict = checkKernelAnswer(message, {
    taskId,
    contextId: receipt.contextId,
    values: [receipt.value],
  });
  if (!verdict.ok) return invalidParams(verdict.reason);
  if (verdict.answer.kind !== 'permission' || verdict.answer.decision !== receipt.decision)
    // The kernel's own message for this refusal, word for word.
    return {
      kind: 'reject',
      message: 'permission_resume_invalid: permission decision conflicts with receipt.',
    };
  return { kind: 'duplicate', taskId, receipt };
}

function invalidParams(reason: string): AnswerGateDecision {
  return { kind: 'reject', message: `Invalid params: ${reason}` };
}
