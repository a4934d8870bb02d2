import type { Logger } from '@nestjs/common';
import { AguiError } from '../common/agui-error';
import { ErrorCode } from '../common/error-code';
import type { RunPersistence } from '../runs/run-persistence';
import type { ThreadRegistry } from './thread-registry';
import type { ThreadExecution, ThreadState } from './thread-state';

/**
 * One run's writes to its thread (reference §6.6, §4.8 step 7), each under the thread's lock and each
 * durable before the caller goes on. Only the run's own execution is ever changed: if the execution was
 * replaced meanwhile (a cancel made it terminal), the write is refused.
 */
export class ThreadRunState implements RunPersistence {
  private state: ThreadState;

  constructor(
    private readonly registry: ThreadRegistry,
    admitted: ThreadState,
    private readonly runId: string,
    private readonly logger: Logger,
  ) {
    this.state = admitted;
  }

  get taskId(): string | undefined {
    return this.state.execution.taskId ?? undefined;
  }

  get sessionId(): string | undefined {
    return this.state.iacCodeSessionId ?? undefined;
  }

  recordTask(taskId: string): Promise<void> {
    return this.update((state) => ({ ...state, execution: { ...state.execution, taskId } }));
  }

  recordSession(sessionId: string): Promise<void> {
    return this.update((state) => ({ ...state, iacCodeSessionId: sessionId }));
  }

  async markTerminal(): Promise<void> {
    try {
      await this.update((state) => ({
        ...state,
        execution: terminalExecution(state.execution),
        terminalExecutionIds: state.terminalExecutionIds.includes(state.execution.executionId)
          ? state.terminalExecutionIds
          : [...state.terminalExecutionIds, state.execution.executionId],
      }));
    } catch (error) {
      // Best effort (reference §6.6): the run already ended; a later turn rotates the execution anyway.
      this.logger.warn({
        msg: 'could not mark the execution terminal',
        threadId: this.state.threadId,
        executionId: this.state.execution.executionId,
        error: error instanceof Error ? error.message : String(error),
      });
    }
  }

  onCancelled(callback: () => void): void {
    const ownExecution = this.state.execution.executionId;
    this.registry.onCancel(this.state.threadId, this.runId, (executionId) => {
      if (executionId === ownExecution) callback();
    });
  }

  release(): void {
    this.registry.release(this.state.threadId, this.runId);
  }

  private update(change: (state: ThreadState) => ThreadState): Promise<void> {
    const { threadId, execution } = this.state;
    return this.registry.withLock(threadId, async () => {
      const current = (await this.registry.load(threadId)) ?? this.state;
      if (current.execution.executionId !== execution.executionId) {
        throw new AguiError(ErrorCode.STATE_PERSISTENCE_FAILED, 'executionMappingNotCommitted');
      }
      const next = change(current);
      await this.registry.commit(next);
      this.state = next;
    });
  }
}

function terminalExecution(execution: ThreadExecution): ThreadExecution {
  return { ...execution, taskId: null, lastTaskId: execution.taskId ?? execution.lastTaskId, pending: {} };
}
