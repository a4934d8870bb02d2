import type { BaseEvent } from '@ag-ui/core';
import { rejectionOf } from '../a2a/upstream-error';
import { AguiError, isAguiError } from '../common/agui-error';
import { ErrorCode } from '../common/error-code';
import { runError, runFinished, runStarted } from '../events/run-events';
import { CANCELED_STATES } from '../events/run-outcome';
import { unwrapFrame, type UnwrappedFrame } from '../wire/unwrap-frame';
import type { MessageKey } from '../i18n/message-key';
import { describeError, type RunDeps } from './run-context';
import type { AdmittedRun } from './admitted-run';
import { userTurnMessage } from './user-turn-message';

const FAILED_STATES: ReadonlySet<string> = new Set(['failed', 'rejected', 'auth-required']);

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
      const { code, messageKey } = this.refusalOf(failure);
      this.deps.logger.log({ msg: 'run ended with an error', outcome: code, ...this.ids() });
      const text = this.deps.catalogue.render(messageKey, this.run.language);
      yield runError(code, text, undefined, this.deps.clock.now());
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
      const refusal = rejectionOf(error);
      this.deps.logger.error({
        msg: 'guidance not delivered',
        code: refusal.code,
        error: describeError(error),
        ...this.ids(),
      });
      throw refusal;
    }
  }

  private refusalOf(error: unknown): { code: ErrorCode; messageKey: MessageKey } {
    if (isAguiError(error)) return error;
    this.deps.logger.error({ msg: 'guidance failed', error: describeError(error), ...this.ids() });
    return { code: ErrorCode.A2A_UNAVAILABLE, messageKey: 'a2aUnavailable' };
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
  if (frame.state && FAILED_STATES.has(frame.state))
    throw new AguiError(ErrorCode.A2A_EXECUTION_FAILED, 'a2aExecutionFailed');
  if (frame.state && CANCELED_STATES.has(frame.state))
    throw new AguiError(ErrorCode.CANCELLED, 'executionCancelled');
}
