import { contextIdForThread } from '../../src/threads/thread-context-id';
import type { ThreadState } from '../../src/threads/thread-state';

/**
 * The n-th document the crash writer saves for a thread. Deterministic, so after a SIGKILL the test can
 * tell a complete document (equal to `crashDocument(id, n)` for its own n) from a torn one; the size
 * changes with n (about 2–40 KB) so a half-replaced file cannot pass for another sequence number.
 */
export function crashDocument(threadId: string, sequence: number): ThreadState {
  const runDigests: Record<string, string> = {};
  for (let run = 0; run < 20 + (sequence % 13); run++) {
    runDigests[`run-${run}`] = (sequence * 31 + run).toString(16).padStart(64, '0');
  }
  return {
    schemaVersion: 1,
    threadId,
    contextId: contextIdForThread(threadId),
    cwd: '/srv/ws',
    userId: null,
    iacCodeSessionId: `session-${sequence}`,
    execution: {
      executionId: `exec-${sequence}`,
      rosInvocationId: 'invocation-1',
      taskId: `task-${sequence}`,
      lastTaskId: null,
      pipelineSequence: sequence,
      pipelineOpenSteps: [],
      textSnapshotDigests: [],
      pending: {},
    },
    runDigests,
    appliedResumeDigests: [],
    terminalExecutionIds: [],
    crashSequence: sequence,
    crashPadding: 'x'.repeat(2000 + ((sequence * 7919) % 38000)),
  } as ThreadState;
}

export function sequenceOf(state: ThreadState): number {
  return (state as ThreadState & { crashSequence: number }).crashSequence;
}
