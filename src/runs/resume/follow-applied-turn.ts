import type { BaseEvent } from '@ag-ui/core';
import { AguiError } from '../../common/agui-error';
import { ErrorCode } from '../../common/error-code';
import { isStopState } from '../../events/run-outcome';
import type { UnwrappedFrame } from '../../wire/unwrap-frame';
import type { StreamEnd } from '../frame-consumer';
import { preflight } from './resume-preflight';
import { consume, type ResumeScope } from './resume-run';

/**
 * The rest of a turn whose answers the kernel already applied, streamed from the task: the snapshot (already
 * mapped, but for its status text) gives the turn's final text if it holds it, and a task still working is
 * followed, the task a subscription opens with giving its final text the same way (a text frame sent
 * between GetTask and the subscription is in it); the run ends with RESUME_ALREADY_APPLIED, as every retry
 * of an applied answer does — unless the turn reached a new interrupt, which ends it as usual.
 */
export async function* followAppliedTurn(
  scope: ResumeScope,
  snapshot: UnwrappedFrame,
): AsyncGenerator<BaseEvent, StreamEnd> {
  const { run } = scope;
  yield* run.mapper.mapFinalTextOf(snapshot, run.now());
  if (!isStopState(snapshot.state)) {
    const followed = yield* consume(scope, scope.kernel.subscribe(scope.taskId), {
      firstTaskSnapshot: 'inputs-and-final-text',
    });
    if (followed.kind === 'interrupted') return followed;
  }
  throw new AguiError(ErrorCode.RESUME_ALREADY_APPLIED, 'responseAlreadyApplied');
}

/**
 * Re-adoption of an orphaned turn (docs/behaviour/state.md#re-adoption): its answers were applied and
 * recorded, but the run streaming it ended without ending the execution (its replica died; its lease
 * expired). GetTask, then SubscribeToTask while the task still works (the final text from a snapshot that holds
 * it), so this client gets the rest of the turn. Reads only: nothing is sent to the kernel again.
 */
export async function* readoptTurn(scope: ResumeScope): AsyncGenerator<BaseEvent, StreamEnd> {
  // Stryker disable next-line CallExpression,ObjectLiteral,StringLiteral: a log line only, seen by no caller
  scope.run.deps.logger.log({ msg: 'an orphaned turn is re-adopted', ...scope.run.ids() });
  const preflighted = yield* preflight(scope);
  if (preflighted.kind === 'forgotten') {
    throw new AguiError(ErrorCode.RESUME_ALREADY_APPLIED, 'responseAlreadyApplied');
  }
  return yield* followAppliedTurn(scope, preflighted.snapshot);
}
