import type { ThreadState } from './thread-state';

/**
 * The thread with its current execution ended (docs/behaviour/cancel.md#cancel-route step 4, docs/behaviour/events.md#run-lifecycle step 7): pending interrupts
 * cleared, the task unbound and kept as `lastTaskId`, the execution listed as terminal once. Pure.
 */
export function withExecutionTerminal(state: ThreadState): ThreadState {
  const { execution } = state;
  return {
    ...state,
    execution: {
      ...execution,
      taskId: null,
      lastTaskId: execution.taskId ?? execution.lastTaskId,
      pending: {},
    },
    terminalExecutionIds: state.terminalExecutionIds.includes(execution.executionId)
      ? state.terminalExecutionIds
      : [...state.terminalExecutionIds, execution.executionId],
  };
}
