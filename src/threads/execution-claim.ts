import type { ThreadState } from './thread-state';

/** What a caller names to act on an execution it did not start on this connection. */
export interface ExecutionClaim {
  readonly executionId: string;
  readonly rosInvocationId: string;
  /**
   * The caller's AgentCore session (`null`: none). Checked only when present, against the session the
   * thread is bound to, if any.
   */
  readonly agentCoreSessionId?: string | null;
}

/**
 * Whether the caller proves the thread's execution: the one check of the cancel extension and the reattach
 * routes (docs/behaviour/cancel.md#cancel-route, docs/behaviour/reattach.md#routes), so a check added here
 * covers both. A mismatch is answered like an unknown execution, revealing nothing.
 */
export function provesExecution(state: ThreadState, claim: ExecutionClaim): boolean {
  const { execution } = state;
  if (execution.executionId !== claim.executionId) return false;
  if (execution.rosInvocationId !== claim.rosInvocationId) return false;
  const boundSession = state.agentCoreSessionId;
  return claim.agentCoreSessionId === undefined || !boundSession || boundSession === claim.agentCoreSessionId;
}
