import type { BaseEvent } from '@ag-ui/core';
import { AguiError, isAguiError } from '../../common/agui-error';
import { ErrorCode } from '../../common/error-code';
import { isStopState } from '../../events/run-outcome';
import { unwrapFrame } from '../../wire/unwrap-frame';
import type { StreamEnd } from '../frame-consumer';
import { consume, single, type ResumeScope } from './resume-run';

/** Sideband answers and the sideband rule: GetTask, SubscribeToTask unless done, and GetTask again on a failed subscription. */
export async function* snapshotThenSubscribe(scope: ResumeScope): AsyncGenerator<BaseEvent, StreamEnd> {
  const { kernel, taskId } = scope;
  const first = yield* consume(scope, single(await kernel.getTask(taskId)));
  if (first.kind !== 'eof') return first;
  let failure: unknown;
  try {
    const subscribed = yield* consume(scope, kernel.subscribe(taskId));
    if (subscribed.kind !== 'eof') return subscribed;
  } catch (error) {
    if (isAguiError(error)) throw error;
    failure = error;
  }
  const again = await kernel.getTask(taskId);
  const { state } = unwrapFrame(again);
  if (state && isStopState(state)) return yield* consume(scope, single(again));
  // Stryker disable next-line StringLiteral: only logged (the cause of A2A_UNAVAILABLE), never sent
  throw failure ?? new Error('the task subscription ended before the task did');
}

/** The answers' streams are the run; a subscription follows unless one of them reached a stop state. */
export async function* subscribeUnlessStopped(
  scope: ResumeScope,
  end: StreamEnd | undefined,
): AsyncGenerator<BaseEvent, StreamEnd> {
  if (end?.kind === 'stopped') return end;
  return yield* consume(scope, scope.kernel.subscribe(scope.taskId));
}

/**
 * docs/behaviour/interrupts.md#continuation: the answer's stream ended at a boundary that is not the end of
 * the turn. Subscribe once; if that ends without a decision, GetTask decides; with nothing there either the
 * task is cancelled and the run fails with A2A_UNAVAILABLE.
 */
export async function* continueAfterBoundary(scope: ResumeScope): AsyncGenerator<BaseEvent, StreamEnd> {
  const { run, kernel, taskId } = scope;
  const subscribed = yield* consume(scope, kernel.subscribe(taskId), { firstTaskSnapshot: 'inputs-only' });
  if (subscribed.kind !== 'eof') return subscribed;
  const decided = yield* consume(scope, single(await kernel.getTask(taskId)), {
    firstTaskSnapshot: 'inputs-only',
  });
  if (decided.kind !== 'eof') return decided;
  run.cancelUpstream(taskId);
  throw new AguiError(ErrorCode.A2A_UNAVAILABLE, 'a2aUnavailable');
}
