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
  private current: ThreadState;

  constructor(
    private readonly registry: ThreadRegistry,
    admitted: ThreadState,
    private readonly runId: string,
    private readonly logger: Logger,
  ) {
    this.current = admitted;
  }

  get state(): ThreadState {
    return this.current;
  }

  async markTerminal(): Promise<void> {
    try {
      await this.write((state) => ({
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
        threadId: this.current.threadId,
        executionId: this.current.execution.executionId,
        error: error instanceof Error ? error.message : String(error),
      });
    }
  }

  onCancelled(callback: () => void): void {
    const ownExecution = this.current.execution.executionId;
    this.registry.onCancel(this.current.threadId, this.runId, (executionId) => {
      if (executionId === ownExecution) callback();
    });
  }

  release(): void {
    this.registry.release(this.current.threadId, this.runId);
  }

  write(change: (state: ThreadState) => ThreadState): Promise<void> {
    const { threadId, execution } = this.current;
    return this.registry.withLock(threadId, async () => {
      const loaded = (await this.registry.load(threadId)) ?? this.current;
      if (loaded.execution.executionId !== execution.executionId) {
        throw new AguiError(ErrorCode.STATE_PERSISTENCE_FAILED, 'executionMappingNotCommitted');
      }
      const next = change(loaded);
      await this.registry.commit(next);
      this.current = next;
    });
  }
}

function terminalExecution(execution: ThreadExecution): ThreadExecution {
  return { ...execution, taskId: null, lastTaskId: execution.taskId ?? execution.lastTaskId, pending: {} };
}
