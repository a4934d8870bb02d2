import { Inject, Injectable, Logger } from '@nestjs/common';
import { AguiError } from '../common/agui-error';
import { CLOCK, type Clock } from '../common/clock';
import { ErrorCode } from '../common/error-code';
import { canonicalDigest } from './canonical-digest';
import { decideAdmission } from './decide-admission';
import { ThreadRegistry } from './thread-registry';
import type { ThreadState } from './thread-state';

export interface ThreadAdmissionRequest {
  readonly threadId: string;
  readonly runId: string;
  /** The body exactly as received (reference §6.4: the digest covers the whole raw request). */
  readonly rawBody: string;
  readonly cwd: string;
  readonly userId: string | null;
  readonly rosInvocationId: string;
  readonly isResume: boolean;
  readonly agentCoreSessionId?: string;
}

export interface ThreadAdmission {
  /** The state as persisted for this run, before any byte of the response. */
  readonly state: ThreadState;
  /** A task whose pending interrupts expired when this turn replaced them: cancel it best-effort. */
  readonly expiredTaskId?: string;
}

/**
 * Admission of reference §6.5 under the thread's lock: load, decide (pure), persist, take the run slot.
 * Persisted before the response starts; a failed write leaves memory untouched and answers 503.
 */
@Injectable()
export class ThreadAdmissionService {
  private readonly logger = new Logger(ThreadAdmissionService.name);

  constructor(
    private readonly registry: ThreadRegistry,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  admit(request: ThreadAdmissionRequest): Promise<ThreadAdmission> {
    const digest = canonicalDigest(request.rawBody);
    return this.registry.withLock(request.threadId, async () => {
      const current = await this.registry.load(request.threadId);
      const decision = decideAdmission(
        current,
        {
          threadId: request.threadId,
          runId: request.runId,
          digest,
          cwd: request.cwd,
          userId: request.userId,
          rosInvocationId: request.rosInvocationId,
          isResume: request.isResume,
          isThreadBusy: this.registry.isBusy(request.threadId),
          newExecutionId: this.clock.uuid(),
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
      try {
        await this.registry.commit(decision.state);
      } catch (error) {
        this.logger.error({
          msg: 'admission write failed',
          code: ErrorCode.STATE_UNAVAILABLE,
          threadId: request.threadId,
        });
        throw new AguiError(ErrorCode.STATE_UNAVAILABLE, 'stateUnavailable', { cause: error });
      }
      this.registry.claim(request.threadId, request.runId);
      return {
        state: decision.state,
        ...(decision.expiredTaskId ? { expiredTaskId: decision.expiredTaskId } : {}),
      };
    });
  }
}
