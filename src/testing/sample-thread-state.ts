import { contextIdForThread } from '../threads/thread-context-id';
import type { ThreadState } from '../threads/thread-state';

/** A valid state for `threadId`; `marker` makes documents of one thread distinguishable. */
export function sampleThreadState(threadId: string, marker = 'v1'): ThreadState {
  return {
    schemaVersion: 1,
    threadId,
    contextId: contextIdForThread(threadId),
    cwd: '/srv/ws',
    userId: 'user-1',
    iacCodeSessionId: null,
    execution: {
      executionId: `exec-${marker}`,
      rosInvocationId: 'invocation-1',
      taskId: null,
      lastTaskId: null,
      pipelineSequence: 0,
      pipelineOpenSteps: [],
      textSnapshotDigests: [],
      pending: {},
    },
    runDigests: { [`run-${marker}`]: 'd'.repeat(64) },
    appliedResumeDigests: [],
    terminalExecutionIds: [],
  };
}
