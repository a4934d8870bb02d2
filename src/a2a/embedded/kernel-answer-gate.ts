import { checkKernelAnswer } from './check-kernel-answer';
import type { KernelAnswer } from './kernel-script';
import type { PendingKernelInputs } from './pending-kernel-inputs';

const MESSAGE_METHODS = new Set(['SendStreamingMessage', 'SendMessage']);

export type AnswerGateDecision =
  /** Not a message to a waiting task: the SDK serves it as usual. */
  | { readonly kind: 'pass' }
  /** Refused before any stream with JSON-RPC -32602 (kernel wire doc "Permission answers are checked strictly"). */
  | { readonly kind: 'reject'; readonly reason: string }
  /** Accepted; a turn already runs on the task (a sideband wait), so the transport hands the answer over itself. */
  | { readonly kind: 'running-turn'; readonly taskId: string; readonly answer: KernelAnswer }
  /** Accepted; the task is parked at INPUT_REQUIRED, so the SDK starts the turn that continues it. */
  | { readonly kind: 'new-turn'; readonly taskId: string; readonly answer: KernelAnswer };

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
  const pending = inputs.viewOf(taskId);
  if (!pending) return { kind: 'pass' };
  const verdict = checkKernelAnswer(message, pending);
  if (!verdict.ok) return { kind: 'reject', reason: verdict.reason };
  return { kind: inputs.accept(taskId, verdict.answer), taskId, answer: verdict.answer };
}
