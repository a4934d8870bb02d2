import type { BaseEvent } from '@ag-ui/core';
import { isTaskGone } from '../../a2a/upstream-error';
import { AguiError } from '../../common/agui-error';
import { ErrorCode } from '../../common/error-code';
import type { MessageKey } from '../../i18n/message-key';
import type { A2aFrame } from '../../wire/a2a-wire';
import { unwrapFrame, type UnwrappedFrame } from '../../wire/unwrap-frame';
import type { ResumeScope } from './resume-run';

export type Preflight =
  | { readonly kind: 'snapshot'; readonly snapshot: UnwrappedFrame; readonly frame: A2aFrame }
  /** The kernel says the session or the task does not exist: not a transient failure. */
  | { readonly kind: 'forgotten'; readonly messageKey: MessageKey };

/**
 * docs/behaviour/interrupts.md#resume-preparation steps 2–4, in the asserted order: session restore,
 * GetTask (identity checked, mapped without status text or Pipeline envelopes), Pipeline catch-up. Returns
 * the unwrapped snapshot for reconciliation, or `forgotten`. A turn whose answers the kernel already applied
 * takes its final text from the snapshot afterwards (followAppliedTurn).
 */
export async function* preflight(scope: ResumeScope): AsyncGenerator<BaseEvent, Preflight> {
  const { run, kernel, taskId } = scope;
  if (run.sessionId) {
    const isRestored = await kernel.restoreSession({ cwd: run.state.cwd, sessionId: run.sessionId, taskId });
    if (!isRestored) return { kind: 'forgotten', messageKey: 'sessionToResumeUnavailable' };
  }
  let frame: A2aFrame;
  try {
    frame = await kernel.getTask(taskId);
  } catch (error) {
    if (isTaskGone(error)) return { kind: 'forgotten', messageKey: 'taskToResumeUnavailable' };
    throw error;
  }
  const snapshot = unwrapFrame(frame);
  if (snapshot.taskId !== taskId || (snapshot.contextId && snapshot.contextId !== run.state.contextId)) {
    throw new AguiError(ErrorCode.A2A_PROTOCOL_ERROR, 'taskIdentityMismatch');
  }
  await run.acceptIdentities(snapshot);
  yield* run.mapper.map(frame, run.now(), { includePipeline: false, includeStatusText: false });
  const pipeline = await kernel.pipelineState(taskId, run.mapper.pipelineCursor);
  // No Pipeline state (undefined) maps to nothing: the recovery needs no guard of its own.
  yield* run.mapper.mapPipelineRecovery(pipeline, run.now());
  return { kind: 'snapshot', snapshot, frame };
}
