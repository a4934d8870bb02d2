import type { BaseEvent } from '@ag-ui/core';
import { AguiError, isAguiError } from '../common/agui-error';
import { ErrorCode } from '../common/error-code';
import { runFinished, runStarted } from '../events/run-events';
import { unwrapFrame, type UnwrappedFrame } from '../wire/unwrap-frame';
import { describeError, type RunDeps } from './run-context';
import type { AdmittedRun } from './admitted-run';
import { runErrorOf, taskStateFailure, upstreamFailure, upstreamRefusal } from './upstream-failure';
import { userTurnMessage } from './user-turn-message';

/**
 * A guidance run (docs/behaviour/guidance-runs.md), as the published adapter 0.16.0 runs it: RUN_STARTED,
 * the newest user message sent to the thread's live Pipeline task, every answer frame only checked (its
 * identities and its state, never mapped to events: the live run streams the Pipeline), then
 * RUN_FINISHED(success) without usage. It owns nothing: it never cancels the task, never makes the
 * execution terminal and holds no slot, so leaving it early only stops its own read.
 */
export class GuidanceRun {
  private readonly abort = new AbortController();
  private isShutDown = false;

  constructor(
    private readonly run: AdmittedRun,
    private readonly deps: RunDeps,
  ) {}

  async *events(): AsyncGenerator<BaseEvent> {
    const identity = { threadId: this.run.threadId, runId: this.run.runId };
    yield runStarted(identity, this.run.input.parentRunId, this.deps.clock.now());
    try {
      await this.send();
      this.deps.logger.log({ msg: 'guidance delivered', ...this.ids() });
      yield runFinished(identity, undefined, this.deps.clock.now());
    } catch (error) {
      const failure = this.isShutDown ? new AguiError(ErrorCode.CANCELLED, 'executionCancelled') : error;
      if (!isAguiError(failure)) {
        this.deps.logger.error({ msg: 'guidance failed', error: describeError(failure), ...this.ids() });
      }
      const refusal = upstreamFailure(failure, 'stream');
      this.deps.logger.log({ msg: 'run ended with an error', outcome: refusal.code, ...this.ids() });
      yield runErrorOf(refusal, this.deps.catalogue, this.run.language, undefined, this.deps.clock.now());
    }
  }

  /** The client left: stop reading the answer. The task belongs to the run being guided. */
  disconnect(): void {
    this.abort.abort();
  }

  /** Shutdown after the drain time: stop reading and end with RUN_ERROR CANCELLED, the task untouched. */
  shutdown(): void {
    this.isShutDown = true;
    this.abort.abort();
  }

  private async send(): Promise<void> {
    const { state } = this.deps.persistence;
    const taskId = state.execution.taskId;
    if (!taskId) throw new AguiError(ErrorCode.EXECUTION_LOST, 'taskToResumeUnavailable');
    const message = await userTurnMessage(this.run, taskId);
    try {
      for await (const frame of this.deps.gateway.sendStreamingMessage(message, this.abort.signal)) {
        checkAnswerFrame(unwrapFrame(frame), taskId, this.run.contextId);
      }
    } catch (error) {
      if (isAguiError(error)) throw error;
      const refusal = upstreamRefusal(error, 'answer');
      this.deps.logger.error({
        msg: 'guidance not delivered',
        code: refusal.code,
        error: describeError(error),
        ...this.ids(),
      });
      throw refusal;
    }
  }

  private ids() {
    return {
      threadId: this.run.threadId,
      runId: this.run.runId,
      executionId: this.run.executionId,
      taskId: this.deps.persistence.state.execution.taskId ?? undefined,
    };
  }
}

/** The published adapter's checks of a guidance answer: same task and context, neither failed nor cancelled. */
function checkAnswerFrame(frame: UnwrappedFrame, taskId: string, contextId: string): void {
  if (frame.taskId && frame.taskId !== taskId)
    throw new AguiError(ErrorCode.A2A_PROTOCOL_ERROR, 'taskIdentityChanged');
  if (frame.contextId && frame.contextId !== contextId)
    throw new AguiError(ErrorCode.A2A_PROTOCOL_ERROR, 'contextIdentityChanged');
  const failure = taskStateFailure(frame.state);
  if (failure) throw new AguiError(failure.code, failure.messageKey);
}
