import { Inject, Injectable, Logger } from '@nestjs/common';
import { AguiError } from '../common/agui-error';
import { CLOCK, type Clock } from '../common/clock';
import { ErrorCode } from '../common/error-code';
import { decideAdmission } from './decide-admission';
import { withExecutionTerminal } from './terminal-execution';
import { ThreadWriteConflictError } from './thread-cluster';
import { ThreadRegistry } from './thread-registry';
import type { ThreadState } from './thread-state';

export interface ThreadAdmissionRequest {
  readonly threadId: string;
  readonly runId: string;
  /** The run digest: the canonical digest of the raw request body (docs/behaviour/state.md#digests). */
  readonly digest: string;
  readonly cwd: string;
  readonly userId: string | null;
  /** The authenticated caller's principal; undefined when anonymous (docs/behaviour/state.md#caller-binding). */
  readonly principal?: string;
  readonly rosInvocationId: string;
  /**
   * A generic client's resume: its `rosInvocationId` is only the reader's fill (the run id), so the thread's
   * own is the one admission checks (docs/behaviour/state.md#admission step 7); a thread never seen keeps it
   * and is refused as lost.
   */
  readonly invocationFromThread?: boolean;
  readonly isResume: boolean;
  /** Set only when session binding is on; `null` when the request named no AgentCore session. */
  readonly agentCoreSessionId?: string | null;
  /** Generic clients mode: a resume may reuse the interrupted run's runId (see `decideAdmission`). */
  readonly acceptsInterruptedRunId?: boolean;
  /** A guidance run: admitted without the active-run slot (see `decideAdmission`). */
  readonly isGuidance?: boolean;
  readonly isPipelineMode?: boolean;
}

export interface ThreadAdmission {
  /** The state as persisted for this run, before any byte of the response. */
  readonly state: ThreadState;
  /** A task whose pending interrupts expired when this turn replaced them: cancel it best-effort. */
  readonly expiredTaskId?: string;
  /** The id the run is recorded and holds the slot under; the request's runId unless a resume reused it. */
  readonly admittedRunId: string;
  /** A task the replaced execution still had bound (its run never ended it): cancel it best-effort. */
  readonly staleTaskId?: string;
}

/** Admission decided again after a lost compare-and-set, this many times in all (cluster mode). */
const ADMISSION_ATTEMPTS = 3;

/**
 * Admission of docs/behaviour/state.md#admission under the thread's lock: load, decide (pure), persist, take the run slot.
 * Persisted before the response starts; a failed write leaves memory untouched and answers 503.
 */
@Injectable()
export class ThreadAdmissionService {
  private readonly logger = new Logger(ThreadAdmissionService.name);

  constructor(
    private readonly registry: ThreadRegistry,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  /**
   * In cluster mode the write is a compare-and-set that also claims the run lease: if another replica wrote
   * the thread meanwhile, the whole admission is decided again on what it wrote; a thread that keeps moving
   * answers THREAD_BUSY (409) — someone else is using it.
   */
  async admit(request: ThreadAdmissionRequest): Promise<ThreadAdmission> {
    for (let attempt = 1; ; attempt++) {
      try {
        return await this.registry.withLock(request.threadId, () => this.admitOnce(request));
      } catch (error) {
        if (!(error instanceof ThreadWriteConflictError)) throw error;
        this.logger.debug({ msg: 'admission lost a race', threadId: request.threadId, attempt });
        if (attempt >= ADMISSION_ATTEMPTS) throw new AguiError(ErrorCode.THREAD_BUSY, 'threadBusy');
      }
    }
  }

  /**
   * The kernel no longer knows this parked execution (it restarted without it): the execution becomes
   * terminal, its interrupts cleared, so the thread takes a new turn. Nothing changes if the thread moved
   * on meanwhile or a run holds it.
   */
  async abandonExecution(threadId: string, executionId: string): Promise<void> {
    await this.registry.withLock(threadId, async () => {
      const state = await this.registry.load(threadId);
      if (state?.execution.executionId !== executionId || this.registry.isBusy(threadId)) return;
      await this.registry.commit(withExecutionTerminal(state)).catch((error: unknown) => {
        this.logger.error({ msg: 'admission write failed', code: ErrorCode.STATE_UNAVAILABLE, threadId });
        throw new AguiError(ErrorCode.STATE_UNAVAILABLE, 'stateUnavailable', { cause: error });
      });
      this.logger.log({
        msg: 'the kernel no longer knows the parked execution: ended',
        threadId,
        executionId,
      });
    });
  }

  private async admitOnce(request: ThreadAdmissionRequest): Promise<ThreadAdmission> {
    const current = await this.registry.load(request.threadId);
    const decision = decideAdmission(
      current,
      {
        threadId: request.threadId,
        runId: request.runId,
        digest: request.digest,
        cwd: request.cwd,
        userId: request.userId,
        ...(request.principal !== undefined ? { principal: request.principal } : {}),
        rosInvocationId:
          request.invocationFromThread && current
            ? current.execution.rosInvocationId
            : request.rosInvocationId,
        isResume: request.isResume,
        isGuidance: request.isGuidance === true,
        isPipelineMode: request.isPipelineMode === true,
        isThreadBusy: this.registry.isBusy(request.threadId),
        newExecutionId: this.clock.uuid(),
        ...(request.acceptsInterruptedRunId
          ? { acceptsInterruptedRunId: true, internalRunId: `resume-${this.clock.uuid()}` }
          : {}),
        ...(request.agentCoreSessionId !== undefined
          ? { agentCoreSessionId: request.agentCoreSessionId }
          : {}),
      },
      this.clock.now(),
    );
    if (decision.kind === 'refused') {
      this.logger.debug({
        msg: 'run refused',
        code: decision.code,
        threadId: request.threadId,
        runId: request.runId,
      });
      throw new AguiError(decision.code, decision.messageKey);
    }
    const admittedRunId = decision.internalRunId ?? request.runId;
    try {
      // A guidance run leaves the slot to the run it guides, which is usually still streaming.
      if (request.isGuidance) await this.registry.commit(decision.state);
      else await this.registry.commitAndClaim(decision.state, admittedRunId);
    } catch (error) {
      // A lost race (retried) and a lease held by another replica (409) are answers, not write failures.
      if (error instanceof ThreadWriteConflictError) throw error;
      if (error instanceof AguiError && error.code === ErrorCode.THREAD_BUSY) {
        this.logger.debug({ msg: 'run refused', code: error.code, threadId: request.threadId });
        throw error;
      }
      this.logger.error({
        msg: 'admission write failed',
        code: ErrorCode.STATE_UNAVAILABLE,
        threadId: request.threadId,
      });
      throw new AguiError(ErrorCode.STATE_UNAVAILABLE, 'stateUnavailable', { cause: error });
    }
    return {
      state: decision.state,
      admittedRunId,
      ...(decision.expiredTaskId ? { expiredTaskId: decision.expiredTaskId } : {}),
      ...(decision.staleTaskId ? { staleTaskId: decision.staleTaskId } : {}),
    };
  }
}
