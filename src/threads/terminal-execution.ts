import type { ThreadState } from './thread-state';

/**
 * The thread with its current execution ended (reference §7.1 step 4, §4.8 step 7): pending interrupts
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
