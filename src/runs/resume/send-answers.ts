import type { BaseEvent } from '@ag-ui/core';
import { AguiError } from '../../common/agui-error';
import { ErrorCode } from '../../common/error-code';
import type { MessageKey } from '../../i18n/message-key';
import type { AnswerCommit, SendPlan, SendStep } from '../../interrupts/group-for-sending';
import type { A2aFrame, A2aOutgoingMessage } from '../../wire/a2a-wire';
import { buildA2aMessage } from '../../run-input/build-a2a-message';
import { upstreamRefusal } from '../upstream-failure';
import type { StreamEnd } from '../frame-consumer';
import { continueAfterBoundary, snapshotThenSubscribe, subscribeUnlessStopped } from './continue-after-send';
import { consume, type ResumeScope } from './resume-run';

/**
 * docs/behaviour/interrupts.md#forwarding-answers: the plan's A2A calls in order, each committing its
 * answers when A2A accepts them, then the plan's continuation.
 */
export async function* sendAnswers(scope: ResumeScope, plan: SendPlan): AsyncGenerator<BaseEvent, StreamEnd> {
  const { run, kernel, answers, taskId } = scope;
  if (plan.kind === 'cancel-execution') {
    // A cancelled question cancels the whole execution (docs/behaviour/interrupts.md#forwarding-answers, docs/behaviour/README.md).
    await kernel.cancelTask(taskId);
    await run.persist(
      (state) => ({ ...state, execution: { ...state.execution, pending: {} } }),
      'acceptedResponseNotCommitted',
    );
    throw new AguiError(ErrorCode.CANCELLED, 'cancelledByInterruptResponse');
  }
  answers.answer(plan.steps.flatMap((step) => step.commits.map((commit) => commit.interruptId)));
  // With a Pipeline under way, what it emitted while permission answers were being sent (a sideband
  // SendMessage carries no stream) is recovered from the kernel when the next wait appears or at the end of
  // the run. A question answer's own stream carries every envelope: recovering again would replay them
  // after the live ones (a late snapshot and a second, out-of-order pipeline_completed).
  const { pipelineSequence } = run.state.execution;
  if (pipelineSequence > 0 && plan.steps.some(carriesPermission)) answers.scheduleRecovery(pipelineSequence);
  let end: StreamEnd | undefined;
  for (const step of plan.steps) {
    const message = resumeMessage(scope, step);
    if (step.method === 'SendMessage') {
      await acceptedOrRejected(kernel.sendAnswer(message));
      await commitAnswers(scope, step);
      continue;
    }
    end = yield* consumeAccepted(scope, step, kernel.streamAnswer(message));
    if (end.kind === 'interrupted') return end;
  }
  switch (plan.then) {
    case 'snapshot-then-subscribe':
      return yield* snapshotThenSubscribe(scope);
    case 'subscribe-unless-terminal':
      return yield* subscribeUnlessStopped(scope, end);
    case 'follow-stream':
      return end?.kind === 'stopped' && end.isEndOfTurn ? end : yield* continueAfterBoundary(scope);
  }
}

/** Records the step's answers as applied and drops them from pending, durably, then queues their tool results. */
export async function commitAnswers(
  scope: Pick<ResumeScope, 'run' | 'answers'>,
  step: Pick<SendStep, 'commits' | 'syntheticToolResults'>,
): Promise<void> {
  const { run, answers } = scope;
  const executionId = run.state.execution.executionId;
  const ids = new Set(step.commits.map((commit: AnswerCommit) => commit.interruptId));
  await run.persist(
    (state) => ({
      ...state,
      // Never an answer already recorded for this execution: planResume drops applied answers, and a taken
      // one counts only if unrecorded (kernel-held-answers.ts); the document keeps one record per pair anyway.
      appliedResumeDigests: [
        ...state.appliedResumeDigests,
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
  answers.queueToolResults(step.syntheticToolResults);
}

/** A streaming answer: its first frame is the acceptance; an error or an empty stream before it keeps the interrupt. */
async function* consumeAccepted(
  scope: ResumeScope,
  step: SendStep,
  frames: AsyncIterable<A2aFrame>,
): AsyncGenerator<BaseEvent, StreamEnd> {
  let isAccepted = false;
  try {
    const end = yield* consume(scope, frames, {
      firstTaskSnapshot: 'skip',
      onAccepted: async () => {
        isAccepted = true;
        await commitAnswers(scope, step);
      },
    });
    if (end.kind === 'eof' && end.frames === 0)
      throw new AguiError(ErrorCode.A2A_UNAVAILABLE, notAcceptedKey(step));
    return end;
  } catch (error) {
    // Once accepted, a failure is the stream's, not a refusal; upstreamRefusal keeps an AguiError as it is.
    if (isAccepted) throw error;
    throw upstreamRefusal(error, 'answer');
  }
}

/** A non-streaming answer: a JSON-RPC error means A2A did not accept it (docs/behaviour/interrupts.md#forwarding-answers). */
async function acceptedOrRejected(call: Promise<A2aFrame>): Promise<void> {
  try {
    await call;
  } catch (error) {
    throw upstreamRefusal(error, 'answer');
  }
}

/** The resume message: the step's parts for the bound task, with this request's overrides and language (docs/behaviour/run-input.md#resume-requests, docs/behaviour/a2a.md#the-message). */
function resumeMessage({ run: { run }, taskId }: ResumeScope, step: SendStep): A2aOutgoingMessage {
  return buildA2aMessage({
    messageId: step.messageId,
    parts: step.parts,
    contextId: run.contextId,
    props: run.props,
    cwd: run.cwd,
    language: run.language,
    taskId,
  });
}

/** Permission answers travel as a DataPart, question answers as text (docs/behaviour/interrupts.md#forwarding-answers). */
function carriesPermission(step: SendStep): boolean {
  // Stryker disable next-line MethodExpression: every step groupForSending builds has exactly one part, so some and every agree
  return step.parts.some((part) => 'data' in part);
}

function notAcceptedKey(step: SendStep): MessageKey {
  return carriesPermission(step) ? 'permissionResponseNotAccepted' : 'interruptResponseNotAccepted';
}
