import type { BaseEvent } from '@ag-ui/core';
import type { A2aFrame, A2aOutgoingMessage } from '../a2a/a2a-gateway';
import { isUpstreamBackupNotReady } from '../a2a/upstream-error';
import { AguiError, isAguiError } from '../common/agui-error';
import { ErrorCode } from '../common/error-code';
import { isStopState } from '../events/run-outcome';
import { unwrapFrame } from '../events/unwrap-frame';
import { encodeAnswers } from '../interrupts/encode-answer';
import {
  groupForSending,
  type AnswerCommit,
  type SendPlan,
  type SendStep,
} from '../interrupts/group-for-sending';
import { expiredIds } from '../interrupts/interrupt-expiry';
import { planLostExecution } from '../interrupts/plan-lost-execution';
import { reconcilePending } from '../interrupts/reconcile-pending';
import { answerDigests } from '../interrupts/resume-digests';
import { planResume } from '../interrupts/resume-plan';
import type { MessageKey } from '../i18n/message-key';
import type { PendingInterruptEntry } from '../threads/thread-state';
import { commitInterrupt, consumeFrames, type StreamEnd } from './frame-consumer';
import { buildA2aMessage } from './input/build-a2a-message';
import { interruptExpiresAt } from './interrupt-ttl';
import type { RunContext } from './run-context';

/**
 * A resume run (reference §5.4–§5.7): preflight against A2A, reconcile and plan without sending anything,
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
    const refusal = planLostExecution({
      appliedDigests: ctx.state.appliedResumeDigests,
      executionId: execution.executionId,
      resume,
      answerDigests: digests,
    });
    throw new AguiError(refusal.code, refusal.messageKey);
  }
  // Seed expiry: an expired interrupt is rejected at the next access, before anything is asked of A2A.
  if (expiredIds(execution.pending, ctx.now()).length > 0) await expireExecution(ctx, taskId);

  const snapshot = yield* preflight(ctx, taskId);
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
    // §5.4 step 8: what reconciliation learned is durable before anything else happens.
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
        groupForSending(encodeAnswers(plan.answers, taskId), ctx.run.runId),
        taskId,
      );
  }
}

/**
 * §5.4 steps 2–4, in the asserted order: session restore, GetTask (identity checked, mapped without status
 * text or Pipeline envelopes), Pipeline catch-up. Returns the unwrapped snapshot for reconciliation.
 */
async function* preflight(ctx: RunContext, taskId: string) {
  const { gateway } = ctx.deps;
  if (ctx.sessionId) {
    const isRestored = await gateway.ensureSessionRestored({
      cwd: ctx.state.cwd,
      sessionId: ctx.sessionId,
      taskId,
    });
    if (!isRestored) throw new AguiError(ErrorCode.EXECUTION_LOST, 'sessionToResumeUnavailable');
  }
  const frame = await gateway.getTask(taskId);
  const snapshot = unwrapFrame(frame);
  if (snapshot.taskId !== taskId || (snapshot.contextId && snapshot.contextId !== ctx.state.contextId)) {
    throw new AguiError(ErrorCode.A2A_PROTOCOL_ERROR, 'taskIdentityMismatch');
  }
  await ctx.acceptIdentities(snapshot);
  yield* ctx.mapper.map(frame, ctx.now(), { includePipeline: false, includeStatusText: false });
  const pipeline = await gateway.getPipelineState(taskId, ctx.mapper.pipelineCursor);
  if (pipeline) yield* ctx.mapper.mapPipelineRecovery(pipeline, ctx.now());
  return snapshot;
}

/** §5.6: the plan's A2A calls in order, each committing its answers when A2A accepts them. */
async function* sendAnswers(
  ctx: RunContext,
  plan: SendPlan,
  taskId: string,
): AsyncGenerator<BaseEvent, StreamEnd> {
  if (plan.kind === 'cancel-execution') {
    // A cancelled question cancels the whole execution (reference §5.6, §10.5).
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
    throw rejection(error);
  }
}

/** Sideband answers and the T-APP 14 rule: GetTask, SubscribeToTask unless done, and GetTask again on a failed subscription. */
async function* snapshotThenSubscribe(ctx: RunContext, taskId: string): AsyncGenerator<BaseEvent, StreamEnd> {
  const first = yield* consumeFrames(ctx, single(await ctx.deps.gateway.getTask(taskId)));
  if (first.kind !== 'eof') return first;
  let failure: unknown;
  try {
    const subscribed = yield* consumeFrames(ctx, subscribe(ctx, taskId));
    if (subscribed.kind !== 'eof') return subscribed;
  } catch (error) {
    if (isAguiError(error)) throw error;
    failure = error;
  }
  const again = await ctx.deps.gateway.getTask(taskId);
  const { state } = unwrapFrame(again);
  if (state && isStopState(state)) return yield* consumeFrames(ctx, single(again));
  throw failure ?? new Error('the task subscription ended before the task did');
}

/**
 * §5.9: the answer's stream ended at a boundary that is not the end of the turn. Subscribe once; if that
 * ends without a decision, GetTask decides; with nothing there either the task is cancelled and the run
 * fails with A2A_UNAVAILABLE.
 */
async function* continueAfterBoundary(ctx: RunContext, taskId: string): AsyncGenerator<BaseEvent, StreamEnd> {
  const subscribed = yield* consumeFrames(ctx, subscribe(ctx, taskId), { firstTaskSnapshot: 'inputs-only' });
  if (subscribed.kind !== 'eof') return subscribed;
  const decided = yield* consumeFrames(ctx, single(await ctx.deps.gateway.getTask(taskId)), {
    firstTaskSnapshot: 'inputs-only',
  });
  if (decided.kind !== 'eof') return decided;
  ctx.cancelUpstream(taskId);
  throw new AguiError(ErrorCode.A2A_UNAVAILABLE, 'a2aUnavailable');
}

function subscribe(ctx: RunContext, taskId: string): AsyncIterable<A2aFrame> {
  return ctx.deps.gateway.subscribeToTask(taskId, ctx.abort.signal);
}

async function* single(frame: A2aFrame): AsyncIterable<A2aFrame> {
  yield frame;
}

/** The resume message: the step's parts for the bound task, with this request's overrides and language (§2.6, §3.2). */
function resumeMessage(ctx: RunContext, step: SendStep, taskId: string): A2aOutgoingMessage {
  return buildA2aMessage({
    messageId: step.messageId,
    parts: step.parts,
    threadId: ctx.run.threadId,
    props: ctx.run.props,
    cwd: ctx.run.cwd,
    language: ctx.run.language,
    taskId,
  });
}

/** Records the step's answers as applied and drops them from pending, durably, then queues their tool results. */
async function commitAnswers(ctx: RunContext, step: SendStep): Promise<void> {
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

/** A non-streaming answer: a JSON-RPC error means A2A did not accept it (§5.6). */
async function acceptedOrRejected(call: Promise<A2aFrame>): Promise<void> {
  try {
    await call;
  } catch (error) {
    throw rejection(error);
  }
}

function rejection(error: unknown): AguiError {
  return isUpstreamBackupNotReady(error)
    ? new AguiError(ErrorCode.SESSION_BACKUP_NOT_READY, 'sessionBackupNotReady', { cause: error })
    : new AguiError(ErrorCode.A2A_UNAVAILABLE, 'interruptResponseRejected', { cause: error });
}

/** Permission answers travel as a DataPart, question answers as text (§5.6). */
function carriesPermission(step: SendStep): boolean {
  return step.parts.some((part) => 'data' in part);
}

function notAcceptedKey(step: SendStep): MessageKey {
  return carriesPermission(step) ? 'permissionResponseNotAccepted' : 'interruptResponseNotAccepted';
}

/** Seed expiry (§5.8 Gen A): cancel the task best effort, clear pending, and refuse with EXECUTION_EXPIRED. */
async function expireExecution(ctx: RunContext, taskId: string): Promise<never> {
  ctx.cancelUpstream(taskId);
  await ctx.persist(
    (state) => ({ ...state, execution: { ...state.execution, pending: {} } }),
    'interruptedStateNotCommitted',
  );
  throw new AguiError(ErrorCode.EXECUTION_EXPIRED, 'executionExpired');
}

function samePendingIds(
  a: Record<string, PendingInterruptEntry>,
  b: Record<string, PendingInterruptEntry>,
): boolean {
  const left = Object.keys(a);
  return left.length === Object.keys(b).length && left.every((id) => Object.hasOwn(b, id) && a[id] === b[id]);
}
