import type { BaseEvent } from '@ag-ui/core';
import type { A2aFrame } from '../wire/a2a-wire';
import { AguiError } from '../common/agui-error';
import { ErrorCode } from '../common/error-code';
import { runFinishedWithInterrupts } from '../events/run-events';
import { isStopState } from '../events/run-outcome';
import { unwrapFrame, type UnwrappedFrame } from '../wire/unwrap-frame';
import { interruptsOfPending } from '../interrupts/build-interrupt';
import { interruptExpiresAt } from './interrupt-ttl';
import { mergePending } from '../interrupts/merge-pending';
import { inputIdOf } from '../interrupts/project-input';
import type { PendingInterruptEntry } from '../interrupts/pending-interrupt';
import type { RunContext } from './run-context';
import type { AnswersInFlight } from './resume/answers-in-flight';

/** How a stream of A2A frames ended for the run. */
export type StreamEnd =
  /** An unanswered input arrived: RUN_FINISHED(interrupt) was emitted, the run is over. */
  | { readonly kind: 'interrupted' }
  /** A state that ends the reading (terminal, or input-required): the run decides its outcome. */
  | { readonly kind: 'stopped'; readonly isEndOfTurn: boolean }
  /** The stream closed without such a state (A2A 1.0 has no `final`: closing is the only signal). */
  | { readonly kind: 'eof'; readonly frames: number }
  /** A resume gave up interrupts of an execution that had already ended or expired: nothing was sent. */
  | { readonly kind: 'abandoned' };

export interface ConsumeOptions {
  /**
   * A continuation or subscription stream opens with the task as stored, still INPUT_REQUIRED with the old
   * question (docs/behaviour/a2a.md#sdk-notes). `skip`: that first `task` frame is ignored; `inputs-only`: it may raise a
   * wait nobody answered yet, but its state never ends the reading (docs/behaviour/interrupts.md#continuation: the task goes on natively);
   * `inputs-and-final-text`: as `inputs-only`, and it gives the turn's final text if it holds it (a re-adopted
   * turn whose text frame went out before the subscription began, docs/behaviour/state.md#re-adoption).
   */
  readonly firstTaskSnapshot?: 'skip' | 'inputs-only' | 'inputs-and-final-text';
  /** Runs once, on the first frame: A2A accepted what was sent, so the caller commits answers then. */
  readonly onAccepted?: () => Promise<void>;
  /** A resume's answers under way: not raised again as interrupts, their tool results emitted after the session event. */
  readonly answers?: AnswersInFlight;
}

/**
 * Consumes one A2A stream (docs/behaviour/events.md#run-lifecycle step 4): identity checks and persistence first, then the session
 * event, then the mapped events; an unanswered required input commits an interrupt and ends the run.
 */
export async function* consumeFrames(
  ctx: RunContext,
  frames: AsyncIterable<A2aFrame>,
  options: ConsumeOptions = {},
): AsyncGenerator<BaseEvent, StreamEnd> {
  let count = 0;
  let sawAssistantFinal = false;
  for await (const frame of frames) {
    count += 1;
    const unwrapped = unwrapFrame(frame);
    if (count === 1 && options.onAccepted) await options.onAccepted();
    if (
      count === 1 &&
      options.firstTaskSnapshot &&
      unwrapped.kind === 'task' &&
      !isTerminal(unwrapped.state)
    ) {
      await ctx.acceptIdentities(unwrapped);
      if (options.firstTaskSnapshot === 'skip') continue;
      if (options.firstTaskSnapshot === 'inputs-and-final-text') {
        const finalText = ctx.mapper.mapFinalTextOf(unwrapped, ctx.now());
        if (finalText.length > 0) yield* ctx.announceSession();
        yield* finalText;
      }
      if (yield* commitInputs(ctx, unwrapped, options.answers)) return { kind: 'interrupted' };
      continue;
    }
    await ctx.acceptIdentities(unwrapped);
    yield* ctx.announceSession();
    if (options.answers && ctx.isSessionAnnounced)
      yield* options.answers.emitToolResults(ctx.mapper, ctx.now());
    yield* ctx.mapper.mapUnwrapped(unwrapped, ctx.now());
    if (isAssistantFinal(unwrapped)) sawAssistantFinal = true;
    ctx.recordState(unwrapped.state);
    if (yield* commitInputs(ctx, unwrapped, options.answers)) return { kind: 'interrupted' };
    if (unwrapped.state && isStopState(unwrapped.state)) {
      return { kind: 'stopped', isEndOfTurn: sawAssistantFinal || unwrapped.state !== 'input-required' };
    }
  }
  return { kind: 'eof', frames: count };
}

/**
 * docs/behaviour/interrupts.md#from-input-required-to-interrupts and docs/behaviour/events.md#run-lifecycle step 4: required inputs not answered in this execution become pending; they are
 * persisted (with the text digests and the Pipeline cursor) before the spans close and RUN_FINISHED with
 * every pending interrupt goes out. Returns true when the run ended at an interrupt.
 */
export async function* commitInputs(
  ctx: RunContext,
  frame: UnwrappedFrame,
  answers: AnswersInFlight | undefined,
): AsyncGenerator<BaseEvent, boolean> {
  if (frame.requiredInputs.length === 0) return false;
  const { execution, appliedResumeDigests, contextId } = ctx.state;
  const answeredIds = new Set([
    ...appliedResumeDigests.filter((d) => d.executionId === execution.executionId).map((d) => d.interruptId),
    ...(answers?.answeringIds ?? []),
  ]);
  const merged = mergePending(execution.pending, frame.requiredInputs, {
    ...(ctx.taskId ? { boundTaskId: ctx.taskId } : {}),
    contextId,
    sidebandIds: new Set(frame.sidebandInputIds),
    answeredIds,
    ...interruptExpiresAt(ctx),
  });
  const waiting = frame.requiredInputs.some((input) => {
    const id = inputIdOf(input);
    return !answeredIds.has(id) && Object.hasOwn(merged.pending, id);
  });
  if (!waiting && merged.added.length === 0) return false;
  // Sideband recovery first (docs/behaviour/events.md#pipeline-recovery b): the Pipeline events missed while answering go out before the wait.
  if (answers) yield* answers.recoverIfScheduled();
  yield* commitInterrupt(ctx, merged.pending);
  return true;
}

/** Persist, then close every span and end with RUN_FINISHED(interrupt) listing all pending interrupts. */
export async function* commitInterrupt(
  ctx: RunContext,
  pending: Record<string, PendingInterruptEntry>,
): AsyncGenerator<BaseEvent> {
  if (Object.keys(pending).length === 0) {
    throw new AguiError(ErrorCode.A2A_PROTOCOL_ERROR, 'interruptResponseNotAccepted');
  }
  ctx.mapper.finaliseTextSnapshots();
  await ctx.persist(
    (state) => ({
      ...state,
      execution: ctx.withMapperState({ ...state.execution, pending, interruptedRunId: ctx.run.runId }),
    }),
    'interruptedStateNotCommitted',
  );
  yield* ctx.mapper.closeAll(ctx.now());
  const interrupts = interruptsOfPending(pending, ctx.fallbackMessage);
  ctx.deps.logger.log({
    msg: 'run ended at an interrupt',
    outcome: 'interrupt',
    interrupts: interrupts.length,
    ...ctx.ids(),
  });
  yield runFinishedWithInterrupts(ctx.identity, interrupts, ctx.mapper.usage(), ctx.now());
}

/** A snapshot of a finished task is authoritative even when it comes first. */
function isTerminal(state: string | undefined): boolean {
  return state !== undefined && state !== 'input-required' && isStopState(state);
}

/** The kernel's end of a normal turn repeats the answer with `assistantFinal.complete` (kernel-wire). */
function isAssistantFinal(frame: UnwrappedFrame): boolean {
  const final = frame.iacCode?.assistantFinal;
  return typeof final === 'object' && final !== null && (final as { complete?: unknown }).complete === true;
}
