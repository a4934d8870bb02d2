import { Injectable } from '@nestjs/common';
import { AguiError } from '../common/agui-error';
import { ErrorCode } from '../common/error-code';
import { MAX_ID_LENGTH } from '../common/max-id-length';
import { provesExecution } from '../threads/execution-claim';
import { mayActOnThread } from '../threads/thread-access';
import { parseCursor } from './event-cursor';
import type { FrameSink } from './frame-sink';
import { followRun, type RunFollower } from './follow-run';
import { RunLogRegistry } from './run-log-registry';
import { framesOf, type RunFrame } from './run-frames';
import type { Observable } from 'rxjs';
import type { SharedRun, SharedRunLog } from './shared-run-log';

/** A reattach (docs/behaviour/reattach.md#routes): which run, who asks, and from which event on. */
export interface ReattachRequest {
  readonly target: { readonly executionId: string } | { readonly threadId: string };
  readonly rosInvocationId: string | undefined;
  /** The caller's AgentCore session (`null`: the request named none). */
  readonly agentCoreSessionId: string | null;
  /** `Last-Event-ID` (or `?after=`); undefined: from the run's first event. */
  readonly cursor: string | undefined;
  /** The authenticated caller's principal; undefined when anonymous. */
  readonly principal?: string;
}

/** A reattach that passed every check: start it once the response may begin. */
export interface AdmittedReattach {
  follow(sink: FrameSink): RunFollower;
  /** The same reader as a cold Observable of the run's frames (docs/architecture.md#a-run); unsubscribing stops it. */
  frames(): Observable<RunFrame>;
}

function admitted(follow: (sink: FrameSink) => RunFollower): AdmittedReattach {
  return {
    follow,
    frames: () =>
      framesOf((sink) => {
        const follower = follow(sink);
        return () => follower.stop();
      }),
  };
}

/**
 * Admits reattaches and observers: the caller proves the execution exactly as on the cancel extension
 * (`mayActOnThread`, then `provesExecution`), plus the AgentCore session where the thread is bound to one; an unknown run and a
 * failed proof get the same 404. Every check happens before the response starts, so a refusal is never a
 * partial stream.
 */
@Injectable()
export class ReattachService {
  constructor(private readonly logs: RunLogRegistry) {}

  /**
   * The run this replica retains, else (Redis mode) the one another replica runs; each check before the
   * response starts.
   */
  async admit(request: ReattachRequest): Promise<AdmittedReattach> {
    const { target, rosInvocationId, cursor } = request;
    if (!rosInvocationId) throw new AguiError(ErrorCode.INVALID_INPUT, 'reattachIdentityRequired');
    const id = 'executionId' in target ? target.executionId : target.threadId;
    if (isTooLong(id) || isTooLong(rosInvocationId))
      throw new AguiError(ErrorCode.INVALID_INPUT, 'reattachIdentityTooLong');
    const parsed = cursor === undefined ? undefined : parseCursor(cursor);
    if (cursor !== undefined && parsed === undefined)
      throw new AguiError(ErrorCode.INVALID_INPUT, 'eventCursorInvalid');
    const local =
      'executionId' in target
        ? this.logs.forExecution(target.executionId)
        : this.logs.forThread(target.threadId);
    const shared = local ? undefined : await this.logs.shared?.find(target);
    const found = local
      ? { identity: local.identity, lastSequence: local.log.lastSequence }
      : shared && { identity: shared.identity, lastSequence: shared.lastSequence };
    const mayAct = found !== undefined && mayActOnThread(found.identity.admittedState, request.principal);
    // The thread route answers another caller's thread as the run route does; the execution route, as the
    // cancel extension: not found (docs/behaviour/state.md#caller-binding).
    if (found && !mayAct && 'threadId' in target)
      throw new AguiError(ErrorCode.THREAD_BINDING_CONFLICT, 'threadBindingConflict');
    const isProven =
      found !== undefined &&
      mayAct &&
      provesExecution(found.identity.admittedState, {
        executionId: found.identity.executionId,
        rosInvocationId,
        agentCoreSessionId: request.agentCoreSessionId,
      });
    if (!found || !isProven) throw new AguiError(ErrorCode.EXECUTION_NOT_FOUND, 'executionNotFound');
    let after = 0;
    if (parsed) {
      // Another run's cursor (an earlier run of the same execution, say) is not applied to this one.
      if (parsed.runToken !== found.identity.runToken)
        throw new AguiError(ErrorCode.EVENTS_EXPIRED, 'eventsExpired');
      if (parsed.sequence > found.lastSequence)
        throw new AguiError(ErrorCode.INVALID_INPUT, 'eventCursorInvalid');
      after = parsed.sequence;
    }
    const isExpired = local ? local.log.hasDropped(after) : after + 1 < (shared as SharedRun).firstHeld;
    if (isExpired) throw new AguiError(ErrorCode.EVENTS_EXPIRED, 'eventsMovedOn');
    if (local) return admitted((sink) => followRun(local, after, sink));
    const remote = shared as SharedRun;
    const sharedLog = this.logs.shared as SharedRunLog;
    return admitted((sink) => sharedLog.follow(remote, after, sink));
  }
}

/** Longer than an id may be (counted in characters, as the path id is). */
function isTooLong(id: string): boolean {
  return id.length > MAX_ID_LENGTH && [...id].length > MAX_ID_LENGTH;
}
