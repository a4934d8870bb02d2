import type { BaseEvent } from '@ag-ui/core';
import type { A2aFrame, A2aOutgoingMessage } from '../wire/a2a-wire';
import { isTaskGone, rejectionOf } from '../a2a/upstream-error';
import { AguiError, isAguiError } from '../common/agui-error';
import { ErrorCode } from '../common/error-code';
import { isStopState } from '../events/run-outcome';
import { unwrapFrame } from '../wire/unwrap-frame';
import { encodeAnswers } from '../interrupts/encode-answer';
import {
  groupForSending,
  type AnswerCommit,
  type SendPlan,
  type SendStep,
} from '../interrupts/group-for-sending';
import { givesUpEveryInterrupt } from '../interrupts/gives-up-every-interrupt';
import { expiredIds } from '../interrupts/interrupt-expiry';
import { isTakenByKernel, permissionAnswersInHistory } from '../interrupts/kernel-held-answers';
import { planLostExecution } from '../interrupts/plan-lost-execution';
import { reconcilePending } from '../interrupts/reconcile-pending';
import { answerDigests } from '../interrupts/resume-digests';
import { planResume } from '../interrupts/resume-plan';
import { appliedDigestsFor, digestOfEntry } from '../interrupts/applied-digests';
import type { MessageKey } from '../i18n/message-key';
import { END_REASON_EXPIRED } from '../threads/thread-state';
import type { PendingInterruptEntry } from '../interrupts/pending-interrupt';
import { commitInterrupt, consumeFrames, type StreamEnd } from './frame-consumer';
import { buildA2aMessage } from '../run-input/build-a2a-message';
import { interruptExpiresAt } from './interrupt-ttl';
import type { RunContext } from './run-context';

/**
 * A resume run (docs/behaviour/interrupts.md#resume-preparation–docs/behaviour/interrupts.md#replay): preflight against A2A, reconcile and plan without sending anything,
 * then send the answers the kernel's way. Every failure before A2A accepts an answer leaves the interrupt
 * pending and retryable; an accepted answer is committed (digest recorded, entry removed) before its
 * events are announced.
 */
export async function* resumeRun(ctx: RunContext): AsyncGenerator<BaseEvent, StreamEnd> {
  const resume = ctx.run.input.resume ?? [];
  const digests = answerDigests(ctx.run.rawBody);
  const { execution } = ctx.state;
  const taskId = execution.taskId;
  if (!taskId || Object.keys(execution.pending).length === 0) {
    if (givesUpEveryInterrupt(resume)) return { kind: 'abandoned' };
    const refusal = planLostExecution({
      appliedDigests: ctx.state.appliedResumeDigests,
      executionId: execution.executionId,
      resume,
      answerDigests: digests,
      isExpired: execution.endReason === END_REASON_EXPIRED,
    });
    // Applied, but the execution was never ended: the replica running it died mid-turn (re-adoption).
    if (taskId && refusal.code === ErrorCode.RESUME_ALREADY_APPLIED) return yield* readoptTurn(ctx, taskId);
    throw new AguiError(refusal.code, refusal.messageKey);
  }
  // Interrupt expiry: an expired interrupt is rejected at the next access, before anything is asked of A2A.
  if (expiredIds(execution.pending, ctx.now()).length > 0) {
    if (!givesUpEveryInterrupt(resume)) return await expireExecution(ctx, taskId);
    await clearExpired(ctx, taskId);
    return { kind: 'abandoned' };
  }

  const preflighted = yield* preflight(ctx, taskId);
  if (preflighted.kind === 'forgotten') return await abandonForgotten(ctx, preflighted.messageKey);
  const { snapshot, frame } = preflighted;
  // An answer recorded for this execution is not a lost one, even if the kernel asks the same input again.
  const recorded = appliedDigestsFor(ctx.state.appliedResumeDigests, execution.executionId);
  const held = [...permissionAnswersInHistory(frame)].filter((id) => !recorded.has(id));
  if (isTakenByKernel(resume, execution.pending, new Set(held))) {
    const commits = resume.map((entry) => ({
      interruptId: entry.interruptId,
      digest: digestOfEntry(entry, digests),
    }));
    return yield* recordTakenAnswers(ctx, commits, taskId, snapshot.state);
  }
  const reconciled = reconcilePending({
    current: execution.pending,
    snapshot,
    resumeIds: resume.map((entry) => entry.interruptId),
    boundTaskId: taskId,
    contextId: ctx.state.contextId,
    ...interruptExpiresAt(ctx),
  });
  const plan = planResume({
    pending: reconciled.pending,
    appliedDigests: ctx.state.appliedResumeDigests,
    executionId: execution.executionId,
    pendingBefore: new Set(Object.keys(execution.pending)),
    resume,
    answerDigests: digests,
    now: ctx.now(),
    validate: ctx.deps.validate,
  });
  if (!samePendingIds(plan.pending, ctx.state.execution.pending)) {
    // docs/behaviour/interrupts.md#resume-preparation step 8: what reconciliation learned is durable before anything else happens.
    await ctx.persist(
      (state) => ({ ...state, execution: { ...state.execution, pending: plan.pending } }),
      'interruptedStateNotCommitted',
    );
  }
  switch (plan.kind) {
    case 'refused':
      if (plan.expiredIds) await expireExecution(ctx, taskId);
      throw new AguiError(plan.code, plan.messageKey);
    case 'interrupt-again':
      yield* commitInterrupt(ctx, plan.pending);
      return { kind: 'interrupted' };
    case 'already-applied':
      throw new AguiError(ErrorCode.RESUME_ALREADY_APPLIED, 'responseAlreadyApplied');
    case 'apply':
      return yield* sendAnswers(
        ctx,
        groupForSending(encodeAnswers(plan.answers, taskId), ctx.run.admittedRunId),
        taskId,
      );
  }
}

/**
 * docs/behaviour/interrupts.md#resume-preparation steps 2–4, in the asserted order: session restore, GetTask (identity checked, mapped without status
 * text or Pipeline envelopes), Pipeline catch-up. Returns the unwrapped snapshot for reconciliation, or
 * `forgotten` when the kernel says the session or the task does not exist (not a transient failure).
 */
async function* preflight(ctx: RunContext, taskId: string, mapsTextOfEndedTurn = false) {
  const { gateway } = ctx.deps;
  if (ctx.sessionId) {
    const isRestored = await gateway.ensureSessionRestored(
      { cwd: ctx.state.cwd, sessionId: ctx.sessionId, taskId },
      ctx.abort.signal,
    );
    if (!isRestored) return forgotten('sessionToResumeUnavailable');
  }
  let frame: A2aFrame;
  try {
    frame = await getTask(ctx, taskId);
  } catch (error) {
    if (isTaskGone(error)) return forgotten('taskToResumeUnavailable');
    throw error;
  }
  const snapshot = unwrapFrame(frame);
  if (snapshot.taskId !== taskId || (snapshot.contextId && snapshot.contextId !== ctx.state.contextId)) {
    throw new AguiError(ErrorCode.A2A_PROTOCOL_ERROR, 'taskIdentityMismatch');
  }
  await ctx.acceptIdentities(snapshot);
  const includeStatusText = mapsTextOfEndedTurn && isStopState(snapshot.state);
  yield* ctx.mapper.map(frame, ctx.now(), { includePipeline: false, includeStatusText });
  const pipeline = await gateway.getPipelineState(taskId, ctx.mapper.pipelineCursor, ctx.abort.signal);
  if (pipeline) yield* ctx.mapper.mapPipelineRecovery(pipeline, ctx.now());
  return { kind: 'snapshot' as const, snapshot, frame };
}

/**
 * The kernel already holds these answers (the service stopped after it accepted them, before they were
 * recorded): they are recorded now and not sent again, the rest of the turn is streamed from the task (its
 * snapshot was mapped by the preflight; a task still working is followed), and the run ends with
 * RESUME_ALREADY_APPLIED — unless the turn reached a new interrupt, which ends it as usual.
 */
async function* recordTakenAnswers(
  ctx: RunContext,
  commits: AnswerCommit[],
  taskId: string,
  state: string | undefined,
): AsyncGenerator<BaseEvent, StreamEnd> {
  ctx.deps.logger.log({ msg: 'the kernel already took this answer: recorded, not sent again', ...ctx.ids() });
  await commitAnswers(ctx, { commits, syntheticToolResults: [] });
  if (!isStopState(state)) {
    const followed = yield* consumeFrames(ctx, subscribe(ctx, taskId), { firstTaskSnapshot: 'inputs-only' });
    if (followed.kind === 'interrupted') return followed;
  }
  throw new AguiError(ErrorCode.RESUME_ALREADY_APPLIED, 'responseAlreadyApplied');
}

/**
 * Re-adoption of an orphaned turn (docs/behaviour/state.md#re-adoption): its answers were applied and recorded,
 * but the run streaming it ended without ending the execution (its replica died; its lease expired). GetTask,
 * then SubscribeToTask while the task still works (its text from the snapshot when it already ended), so this
 * client gets the rest of the turn; it ends as every retry of an applied answer does — RESUME_ALREADY_APPLIED —
 * unless the turn reached a new interrupt.
 */
export async function* readoptTurn(ctx: RunContext, taskId: string): AsyncGenerator<BaseEvent, StreamEnd> {
  ctx.deps.logger.log({ msg: 'an orphaned turn is re-adopted', ...ctx.ids() });
  // A turn that ended while nobody listened: its snapshot's text is the rest of it.
  const preflighted = yield* preflight(ctx, taskId, true);
  if (preflighted.kind === 'forgotten')
    throw new AguiError(ErrorCode.RESUME_ALREADY_APPLIED, 'responseAlreadyApplied');
  return yield* recordTakenAnswers(ctx, [], taskId, preflighted.snapshot.state);
}

function forgotten(messageKey: MessageKey) {
  return { kind: 'forgotten' as const, messageKey };
}

/**
 * The kernel forgot the execution (it restarted without it). Answers cannot reach it, so a resume that
 * only cancels ends the execution here — terminal, the thread free — while one that answers is refused
 * EXECUTION_LOST with the interrupt kept (README "After a kernel restart").
 */
async function abandonForgotten(ctx: RunContext, messageKey: MessageKey): Promise<StreamEnd> {
  const resume = ctx.run.input.resume ?? [];
  if (!givesUpEveryInterrupt(resume)) throw new AguiError(ErrorCode.EXECUTION_LOST, messageKey);
  ctx.deps.logger.log({ msg: 'the kernel no longer knows the execution: given up here', ...ctx.ids() });
  await ctx.persist(
    (state) => ({ ...state, execution: { ...state.execution, pending: {} } }),
    'acceptedResponseNotCommitted',
  );
  // Like giving up the interrupts of an ended execution: RUN_FINISHED, so a client clears its pending list.
  return { kind: 'abandoned' };
}

/** docs/behaviour/interrupts.md#forwarding-answers: the plan's A2A calls in order, each committing its answers when A2A accepts them. */
async function* sendAnswers(
  ctx: RunContext,
  plan: SendPlan,
  taskId: string,
): AsyncGenerator<BaseEvent, StreamEnd> {
  if (plan.kind === 'cancel-execution') {
    // A cancelled question cancels the whole execution (docs/behaviour/interrupts.md#forwarding-answers, docs/behaviour/README.md).
    await ctx.deps.gateway.cancelTask(taskId);
    await ctx.persist(
      (state) => ({ ...state, execution: { ...state.execution, pending: {} } }),
      'acceptedResponseNotCommitted',
    );
    throw new AguiError(ErrorCode.CANCELLED, 'cancelledByInterruptResponse');
  }
  for (const step of plan.steps) for (const commit of step.commits) ctx.answeringIds.add(commit.interruptId);
  // With a Pipeline under way, what it emitted while permission answers were being sent (a sideband
  // SendMessage carries no stream) is recovered from the kernel when the next wait appears or at the end of
  // the run. A question answer's own stream carries every envelope: recovering again would replay them
  // after the live ones (a late snapshot and a second, out-of-order pipeline_completed).
  const { pipelineSequence } = ctx.state.execution;
  if (pipelineSequence > 0 && plan.steps.some(carriesPermission))
    ctx.scheduledRecoveryAfter = pipelineSequence;
  let end: StreamEnd | undefined;
  for (const step of plan.steps) {
    const message = resumeMessage(ctx, step, taskId);
    if (step.method === 'SendMessage') {
      // Not aborted when the client leaves: an answer the kernel may have taken is recorded once it says so
      // (bounded by the call timeout), so that a retry is recognised as already applied.
      await acceptedOrRejected(ctx.deps.gateway.sendMessage(message));
      await commitAnswers(ctx, step);
      continue;
    }
    end = yield* consumeAccepted(ctx, step, ctx.deps.gateway.sendStreamingMessage(message, ctx.abort.signal));
    if (end.kind === 'interrupted') return end;
  }
  switch (plan.then) {
    case 'snapshot-then-subscribe':
      return yield* snapshotThenSubscribe(ctx, taskId);
    case 'subscribe-unless-terminal':
      return end?.kind === 'stopped' ? end : yield* consumeFrames(ctx, subscribe(ctx, taskId));
    case 'follow-stream':
      return end?.kind === 'stopped' && end.isEndOfTurn ? end : yield* continueAfterBoundary(ctx, taskId);
  }
}

/** A streaming answer: its first frame is the acceptance; an error or an empty stream before it keeps the interrupt. */
async function* consumeAccepted(
  ctx: RunContext,
  step: SendStep,
  frames: AsyncIterable<A2aFrame>,
): AsyncGenerator<BaseEvent, StreamEnd> {
  let isAccepted = false;
  try {
    const end = yield* consumeFrames(ctx, frames, {
      firstTaskSnapshot: 'skip',
      onAccepted: async () => {
        isAccepted = true;
        await commitAnswers(ctx, step);
      },
    });
    if (end.kind === 'eof' && end.frames === 0)
      throw new AguiError(ErrorCode.A2A_UNAVAILABLE, notAcceptedKey(step));
    return end;
  } catch (error) {
    if (isAccepted || isAguiError(error)) throw error;
    throw rejectionOf(error);
  }
}

/** Sideband answers and the sideband rule: GetTask, SubscribeToTask unless done, and GetTask again on a failed subscription. */
async function* snapshotThenSubscribe(ctx: RunContext, taskId: string): AsyncGenerator<BaseEvent, StreamEnd> {
  const first = yield* consumeFrames(ctx, single(await getTask(ctx, taskId)));
  if (first.kind !== 'eof') return first;
  let failure: unknown;
  try {
    const subscribed = yield* consumeFrames(ctx, subscribe(ctx, taskId));
    if (subscribed.kind !== 'eof') return subscribed;
  } catch (error) {
    if (isAguiError(error)) throw error;
    failure = error;
  }
  const again = await getTask(ctx, taskId);
  const { state } = unwrapFrame(again);
  if (state && isStopState(state)) return yield* consumeFrames(ctx, single(again));
  throw failure ?? new Error('the task subscription ended before the task did');
}

/**
 * docs/behaviour/interrupts.md#continuation: the answer's stream ended at a boundary that is not the end of the turn. Subscribe once; if that
 * ends without a decision, GetTask decides; with nothing there either the task is cancelled and the run
 * fails with A2A_UNAVAILABLE.
 */
async function* continueAfterBoundary(ctx: RunContext, taskId: string): AsyncGenerator<BaseEvent, StreamEnd> {
  const subscribed = yield* consumeFrames(ctx, subscribe(ctx, taskId), { firstTaskSnapshot: 'inputs-only' });
  if (subscribed.kind !== 'eof') return subscribed;
  const decided = yield* consumeFrames(ctx, single(await getTask(ctx, taskId)), {
    firstTaskSnapshot: 'inputs-only',
  });
  if (decided.kind !== 'eof') return decided;
  ctx.cancelUpstream(taskId);
  throw new AguiError(ErrorCode.A2A_UNAVAILABLE, 'a2aUnavailable');
}

/** GetTask stops as soon as the run does (a client gone): the thread must not wait for a hung kernel. */
function getTask(ctx: RunContext, taskId: string): Promise<A2aFrame> {
  return ctx.deps.gateway.getTask(taskId, undefined, ctx.abort.signal);
}

function subscribe(ctx: RunContext, taskId: string): AsyncIterable<A2aFrame> {
  return ctx.deps.gateway.subscribeToTask(taskId, ctx.abort.signal);
}

async function* single(frame: A2aFrame): AsyncIterable<A2aFrame> {
  yield frame;
}

/** The resume message: the step's parts for the bound task, with this request's overrides and language (docs/behaviour/run-input.md#resume-requests, docs/behaviour/a2a.md#the-message). */
function resumeMessage(ctx: RunContext, step: SendStep, taskId: string): A2aOutgoingMessage {
  return buildA2aMessage({
    messageId: step.messageId,
    parts: step.parts,
    contextId: ctx.run.contextId,
    props: ctx.run.props,
    cwd: ctx.run.cwd,
    language: ctx.run.language,
    taskId,
  });
}

/** Records the step's answers as applied and drops them from pending, durably, then queues their tool results. */
async function commitAnswers(
  ctx: RunContext,
  step: Pick<SendStep, 'commits' | 'syntheticToolResults'>,
): Promise<void> {
  const executionId = ctx.state.execution.executionId;
  const ids = new Set(step.commits.map((commit: AnswerCommit) => commit.interruptId));
  await ctx.persist(
    (state) => ({
      ...state,
      appliedResumeDigests: [
        ...state.appliedResumeDigests.filter(
          (d) => !(d.executionId === executionId && ids.has(d.interruptId)),
        ),
        ...step.commits.map((commit) => ({
          executionId,
          interruptId: commit.interruptId,
          digest: commit.digest,
        })),
      ],
      execution: {
        ...state.execution,
        pending: Object.fromEntries(Object.entries(state.execution.pending).filter(([id]) => !ids.has(id))),
      },
    }),
    'acceptedResponseNotCommitted',
  );
  ctx.pendingToolResults.push(...step.syntheticToolResults);
}

/** A non-streaming answer: a JSON-RPC error means A2A did not accept it (docs/behaviour/interrupts.md#forwarding-answers). */
async function acceptedOrRejected(call: Promise<A2aFrame>): Promise<void> {
  try {
    await call;
  } catch (error) {
    throw rejectionOf(error);
  }
}

/** Permission answers travel as a DataPart, question answers as text (docs/behaviour/interrupts.md#forwarding-answers). */
function carriesPermission(step: SendStep): boolean {
  return step.parts.some((part) => 'data' in part);
}

function notAcceptedKey(step: SendStep): MessageKey {
  return carriesPermission(step) ? 'permissionResponseNotAccepted' : 'interruptResponseNotAccepted';
}

/** Interrupt expiry (docs/behaviour/interrupts.md#expiry): cancel the task best effort, clear pending, and refuse with EXECUTION_EXPIRED. */
async function expireExecution(ctx: RunContext, taskId: string): Promise<never> {
  await clearExpired(ctx, taskId);
  throw new AguiError(ErrorCode.EXECUTION_EXPIRED, 'executionExpired');
}

/** The expired execution's task is cancelled best effort and its pending interrupts are dropped, durably. */
async function clearExpired(ctx: RunContext, taskId: string): Promise<void> {
  ctx.cancelUpstream(taskId);
  await ctx.persist(
    (state) => ({ ...state, execution: { ...state.execution, pending: {}, endReason: END_REASON_EXPIRED } }),
    'interruptedStateNotCommitted',
  );
}

function samePendingIds(
  a: Record<string, PendingInterruptEntry>,
  b: Record<string, PendingInterruptEntry>,
): boolean {
  const left = Object.keys(a);
  return left.length === Object.keys(b).length && left.every((id) => Object.hasOwn(b, id) && a[id] === b[id]);
}
