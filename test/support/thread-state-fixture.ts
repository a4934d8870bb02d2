import type { ThreadState } from '../../src/threads/thread-state';

/**
 * A thread whose execution `exec-1` is bound to kernel task `task-1`, for unit specs of the stateful thread
 * pieces. `isParked` adds a pending permission interrupt (the run ended at an interrupt), which expires at
 * `expiresAt` when given.
 */
export function threadStateFixture(options: { isParked?: boolean; expiresAt?: string } = {}): ThreadState {
  const expiry = options.expiresAt === undefined ? {} : { expiresAt: options.expiresAt };
  return {
    schemaVersion: 1,
    threadId: 'thread-1',
    contextId: 'agui-0123456789abcdef0123456789abcdef01234567',
    cwd: '/work/ws',
    userId: null,
    iacCodeSessionId: 'session-1',
    execution: {
      executionId: 'exec-1',
      rosInvocationId: 'invocation-1',
      taskId: 'task-1',
      lastTaskId: null,
      pipelineSequence: 0,
      pipelineOpenSteps: [],
      textSnapshotDigests: [],
      pending: options.isParked
        ? {
            'permission-1': {
              value: { inputId: 'permission-1', kind: 'permission' },
              sideband: false,
              ...expiry,
            },
          }
        : {},
    },
    runDigests: { 'run-1': 'd'.repeat(64) },
    appliedResumeDigests: [],
    terminalExecutionIds: [],
  };
}
