import { Inject, Injectable, Logger } from '@nestjs/common';
import { A2A_GATEWAY, type A2aGateway } from '../a2a/a2a-gateway';
import { ActivityTracker } from '../common/activity-tracker';
import { APP_CONFIG, type AppConfig } from '../config/app-config';
import { AguiError } from '../common/agui-error';
import { isTaskGone } from '../a2a/upstream-error';
import { ErrorCode } from '../common/error-code';
import { provesExecution } from '../threads/execution-claim';
import { withExecutionTerminal } from '../threads/terminal-execution';
import { mayActOnThread } from '../threads/thread-access';
import { ThreadRegistry } from '../threads/thread-registry';
import type { CancelRequest } from './cancel-request';

export type CancelOutcome = 'cancelled' | 'already_terminal';

/**
 * The cancel extension of docs/behaviour/cancel.md#cancel-route, reading the thread from the store so it works after a restart.
 * Better than the original: an upstream failure is 502 A2A_UNAVAILABLE and unreadable state 503 (never a
 * bare 500), and an active run of the execution ends with RUN_ERROR CANCELLED at once; the answer waits
 * (bounded) until that run has freed the thread, so the caller's next run is admitted.
 */
@Injectable()
export class CancelService {
  private readonly logger = new Logger(CancelService.name);

  constructor(
    private readonly registry: ThreadRegistry,
    @Inject(A2A_GATEWAY) private readonly gateway: A2aGateway,
    private readonly activity: ActivityTracker,
    @Inject(APP_CONFIG) private readonly config: Pick<AppConfig, 'cancelTimeoutMs'>,
  ) {}

  async cancel(request: CancelRequest): Promise<CancelOutcome> {
    const { outcome, runReleased } = await this.cancelUnderLock(request);
    // After the lock: the cancelled run's last write takes it before the run frees the thread.
    await runReleased;
    return outcome;
  }

  private cancelUnderLock(
    request: CancelRequest,
  ): Promise<{ outcome: CancelOutcome; runReleased?: Promise<void> }> {
    return this.registry.withLock(request.threadId, async () => {
      const state = await this.registry.load(request.threadId);
      // Another caller's thread is not found, as an unknown one (docs/behaviour/state.md#caller-binding).
      if (!state || !mayActOnThread(state, request.principal)) throw notFound();
      const { execution } = state;
      if (state.terminalExecutionIds.includes(request.executionId)) return { outcome: 'already_terminal' };
      if (!provesExecution(state, request)) throw notFound();
      // Upstream first: if A2A cannot cancel, nothing changes here and the caller may retry.
      // An upstream cancel in flight keeps an AgentCore session HealthyBusy.
      const { taskId } = execution;
      if (taskId) await this.activity.track(() => this.cancelUnlessForgotten(request.threadId, taskId));
      await this.registry.commit(withExecutionTerminal(state));
      const runReleased = this.registry.cancelActiveRun(
        request.threadId,
        execution.executionId,
        AbortSignal.timeout(this.config.cancelTimeoutMs),
      );
      this.logger.log({
        msg: 'execution cancelled',
        threadId: request.threadId,
        executionId: request.executionId,
        taskId: execution.taskId,
      });
      return { outcome: 'cancelled', runReleased };
    });
  }

  /**
   * A kernel that no longer knows the task (restarted) has nothing left to cancel: the execution is made
   * terminal all the same, so a thread parked at an interrupt is not stuck (docs/clients.md "After a kernel restart").
   */
  private async cancelUnlessForgotten(threadId: string, taskId: string): Promise<void> {
    try {
      await this.gateway.cancelTask(taskId);
    } catch (error) {
      if (!isTaskGone(error)) throw error;
      this.logger.log({ msg: 'the kernel no longer knows the task: nothing to cancel', threadId, taskId });
    }
  }
}

function notFound(): AguiError {
  return new AguiError(ErrorCode.EXECUTION_NOT_FOUND, 'executionNotFound');
}
