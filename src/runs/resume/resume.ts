import type { BaseEvent } from '@ag-ui/core';
import { AguiError } from '../../common/agui-error';
import { ErrorCode } from '../../common/error-code';
import type { MessageKey } from '../../i18n/message-key';
import { appliedDigestsFor, digestOfEntry } from '../../interrupts/applied-digests';
import { encodeAnswers } from '../../interrupts/encode-answer';
import { givesUpEveryInterrupt } from '../../interrupts/gives-up-every-interrupt';
import { groupForSending, type AnswerCommit } from '../../interrupts/group-for-sending';
import { expiredIds } from '../../interrupts/interrupt-expiry';
import { isTakenByKernel, permissionAnswersInHistory } from '../../interrupts/kernel-held-answers';
import type { PendingInterruptEntry } from '../../interrupts/pending-interrupt';
import { planLostExecution } from '../../interrupts/plan-lost-execution';
import { reconcilePending } from '../../interrupts/reconcile-pending';
import { answerDigests } from '../../interrupts/resume-digests';
import { planResume } from '../../interrupts/resume-plan';
import type { ResumeEntry } from '../../run-input/run-agent-input';
import { END_REASON_EXPIRED } from '../../threads/thread-state';
import type { A2aFrame } from '../../wire/a2a-wire';
import type { UnwrappedFrame } from '../../wire/unwrap-frame';
import type { StreamEnd } from '../frame-consumer';
import { AnswersInFlight } from './answers-in-flight';
import { preflight } from './resume-preflight';
import { followAppliedTurn, readoptTurn } from './follow-applied-turn';
import type { ResumeKernel, ResumeRun, ResumeScope } from './resume-run';
import { commitAnswers, sendAnswers } from './send-answers';

/**
 * A resume run (docs/behaviour/interrupts.md#resume-preparation–docs/behaviour/interrupts.md#replay), built
 * with `new` for one run: preflight against A2A, reconcile and plan without sending anything (pure, in
 * `interrupts/`), then send the answers the kernel's way and continue. Every failure before A2A accepts an
 * answer leaves the interrupt pending and retryable; an accepted answer is committed (digest recorded, entry
 * removed) before its events are announced. It owns what it has in flight; it reaches the run only through
 * `ResumeRun` and the kernel only through `ResumeKernel`.
 */
export class Resume {
  private readonly answers: AnswersInFlight;
  private readonly entries: readonly ResumeEntry[];
  private readonly digests: ReadonlyMap<string, string>;

  constructor(
    private readonly run: ResumeRun,
    private readonly kernel: ResumeKernel,
  ) {
    this.entries = run.run.input.resume ?? [];
    this.digests = answerDigests(run.run.pythonResume);
    this.answers = new AnswersInFlight((afterSequence) => this.recover(afterSequence));
  }

  /** The resume's events; a resume that did not end at an interrupt runs its scheduled Pipeline recovery last. */
  async *events(): AsyncGenerator<BaseEvent, StreamEnd> {
    const end = yield* this.resume();
    // Stryker disable next-line ConditionalExpression: an end at an interrupt came through commitInputs, which ran any scheduled recovery before the wait
    if (end.kind !== 'interrupted') yield* this.answers.recoverIfScheduled();
    return end;
  }

  /** Tool results of accepted answers not yet emitted: the run's end emits them after the session event. */
  emitToolResults(): Generator<BaseEvent> {
    return this.answers.emitToolResults(this.run.mapper, this.run.now());
  }

  private async *resume(): AsyncGenerator<BaseEvent, StreamEnd> {
    const { execution } = this.run.state;
    const taskId = execution.taskId;
    if (!taskId || Object.keys(execution.pending).length === 0) return yield* this.lostExecution(taskId);
    const scope = this.scope(taskId);
    // Interrupt expiry: an expired interrupt is rejected at the next access, before anything is asked of A2A.
    if (expiredIds(execution.pending, this.run.now()).length > 0) {
      if (!givesUpEveryInterrupt(this.entries)) return await this.expire(taskId);
      await this.clearExpired(taskId);
      return { kind: 'abandoned' };
    }
    const preflighted = yield* preflight(scope);
    if (preflighted.kind === 'forgotten') return await this.abandonForgotten(preflighted.messageKey);
    const { snapshot, frame } = preflighted;
    if (this.isTakenByKernel(frame)) return yield* this.recordTakenAnswers(scope, snapshot);
    return yield* this.planAndSend(scope, snapshot);
  }

  private scope(taskId: string): ResumeScope {
    return { run: this.run, kernel: this.kernel, answers: this.answers, taskId };
  }

  /**
   * Nothing pending or no task: giving everything up ends quietly, a retry of an applied answer whose
   * execution never ended re-adopts the turn, anything else is refused.
   */
  private async *lostExecution(taskId: string | null): AsyncGenerator<BaseEvent, StreamEnd> {
    if (givesUpEveryInterrupt(this.entries)) return { kind: 'abandoned' };
    const { state } = this.run;
    const refusal = planLostExecution({
      appliedDigests: state.appliedResumeDigests,
      executionId: state.execution.executionId,
      resume: this.entries,
      answerDigests: this.digests,
      isExpired: state.execution.endReason === END_REASON_EXPIRED,
    });
    // Applied, but the execution was never ended: the replica running it died mid-turn.
    if (taskId && refusal.code === ErrorCode.RESUME_ALREADY_APPLIED)
      return yield* readoptTurn(this.scope(taskId));
    throw new AguiError(refusal.code, refusal.messageKey);
  }

  /** An answer recorded for this execution is not a lost one, even if the kernel asks the same input again. */
  private isTakenByKernel(frame: A2aFrame): boolean {
    const { appliedResumeDigests, execution } = this.run.state;
    const recorded = appliedDigestsFor(appliedResumeDigests, execution.executionId);
    const held = [...permissionAnswersInHistory(frame)].filter((id) => !recorded.has(id));
    return isTakenByKernel(this.entries, execution.pending, new Set(held));
  }

  /** Reconcile with the snapshot, plan (pure), make what reconciliation learned durable, then act on the plan. */
  private async *planAndSend(
    scope: ResumeScope,
    snapshot: UnwrappedFrame,
  ): AsyncGenerator<BaseEvent, StreamEnd> {
    const { run } = this;
    const { execution, appliedResumeDigests, contextId } = run.state;
    const reconciled = reconcilePending({
      current: execution.pending,
      snapshot,
      resumeIds: this.entries.map((entry) => entry.interruptId),
      boundTaskId: scope.taskId,
      contextId,
      ...run.interruptExpiry(),
    });
    const plan = planResume({
      pending: reconciled.pending,
      appliedDigests: appliedResumeDigests,
      executionId: execution.executionId,
      pendingBefore: new Set(Object.keys(execution.pending)),
      resume: this.entries,
      answerDigests: this.digests,
      now: run.now(),
      validate: run.deps.validate,
    });
    if (!samePendingIds(plan.pending, execution.pending)) {
      // docs/behaviour/interrupts.md#resume-preparation step 8: what reconciliation learned is durable before anything else happens.
      await run.persist(
        (state) => ({ ...state, execution: { ...state.execution, pending: plan.pending } }),
        'interruptedStateNotCommitted',
      );
    }
    switch (plan.kind) {
      case 'refused':
        if (plan.expiredIds) await this.expire(scope.taskId);
        throw new AguiError(plan.code, plan.messageKey);
      case 'interrupt-again':
        yield* run.commitInterrupt(plan.pending);
        return { kind: 'interrupted' };
      case 'already-applied':
        throw new AguiError(ErrorCode.RESUME_ALREADY_APPLIED, 'responseAlreadyApplied');
      case 'apply':
        return yield* sendAnswers(
          scope,
          groupForSending(encodeAnswers(plan.answers, scope.taskId), run.run.admittedRunId),
        );
    }
  }

  /**
   * The kernel already holds these answers (the service stopped after it accepted them, before they were
   * recorded): they are recorded now and not sent again, and the rest of the turn is streamed from the task.
   */
  private async *recordTakenAnswers(
    scope: ResumeScope,
    snapshot: UnwrappedFrame,
  ): AsyncGenerator<BaseEvent, StreamEnd> {
    const commits: AnswerCommit[] = this.entries.map((entry) => ({
      interruptId: entry.interruptId,
      digest: digestOfEntry(entry, this.digests),
    }));
    // Stryker disable next-line CallExpression,ObjectLiteral: a log record, which no caller sees
    this.run.deps.logger.log({
      // Stryker disable next-line StringLiteral: log text, which no caller sees
      msg: 'the kernel already took this answer: recorded, not sent again',
      ...this.run.ids(),
    });
    await commitAnswers(scope, { commits, syntheticToolResults: [] });
    return yield* followAppliedTurn(scope, snapshot);
  }

  /**
   * The kernel forgot the execution (it restarted without it). Answers cannot reach it, so a resume that
   * only cancels ends the execution here — terminal, the thread free — while one that answers is refused
   * EXECUTION_LOST with the interrupt kept (docs/clients.md "After a kernel restart").
   */
  private async abandonForgotten(messageKey: MessageKey): Promise<StreamEnd> {
    if (!givesUpEveryInterrupt(this.entries)) throw new AguiError(ErrorCode.EXECUTION_LOST, messageKey);
    // Stryker disable next-line CallExpression,ObjectLiteral: a log record, which no caller sees
    this.run.deps.logger.log({
      // Stryker disable next-line StringLiteral: log text, which no caller sees
      msg: 'the kernel no longer knows the execution: given up here',
      ...this.run.ids(),
    });
    await this.run.persist(
      (state) => ({ ...state, execution: { ...state.execution, pending: {} } }),
      'acceptedResponseNotCommitted',
    );
    // Like giving up the interrupts of an ended execution: RUN_FINISHED, so a client clears its pending list.
    return { kind: 'abandoned' };
  }

  /** Interrupt expiry (docs/behaviour/interrupts.md#expiry): cancel the task best effort, clear pending, refuse with EXECUTION_EXPIRED. */
  private async expire(taskId: string): Promise<never> {
    await this.clearExpired(taskId);
    throw new AguiError(ErrorCode.EXECUTION_EXPIRED, 'executionExpired');
  }

  /** The expired execution's task is cancelled best effort and its pending interrupts are dropped, durably. */
  private async clearExpired(taskId: string): Promise<void> {
    this.run.cancelUpstream(taskId);
    await this.run.persist(
      (state) => ({
        ...state,
        execution: { ...state.execution, pending: {}, endReason: END_REASON_EXPIRED },
      }),
      'interruptedStateNotCommitted',
    );
  }

  /** A scheduled Pipeline recovery (docs/behaviour/events.md#pipeline-recovery): the events missed while answering. */
  private async *recover(afterSequence: number): AsyncGenerator<BaseEvent> {
    const taskId = this.run.state.execution.taskId;
    if (!taskId) return;
    // No state maps to no events (as in the preflight).
    yield* this.run.mapper.mapPipelineRecovery(
      await this.kernel.pipelineState(taskId, afterSequence),
      this.run.now(),
    );
  }
}

function samePendingIds(
  a: Record<string, PendingInterruptEntry>,
  b: Record<string, PendingInterruptEntry>,
): boolean {
  const left = Object.keys(a);
  return left.length === Object.keys(b).length && left.every((id) => Object.hasOwn(b, id) && a[id] === b[id]);
}
