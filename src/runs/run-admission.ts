import { mkdir } from 'node:fs/promises';
import { Inject, Injectable, Logger } from '@nestjs/common';
import { A2A_GATEWAY, type A2aGateway } from '../a2a/a2a-gateway';
import { isTaskGone } from '../a2a/upstream-error';
import { ActivityTracker } from '../common/activity-tracker';
import { AguiError } from '../common/agui-error';
import { CLOCK, type Clock } from '../common/clock';
import { ErrorCode } from '../common/error-code';
import { ServiceLifecycle } from '../common/service-lifecycle';
import { APP_CONFIG, type AppConfig } from '../config/app-config';
import { RunMetrics } from '../metrics/run-metrics';
import { resolveCwd } from '../run-input/resolve-cwd';
import type { RunRequest } from '../run-input/run-request';
import {
  ThreadAdmissionService,
  type ThreadAdmission,
  type ThreadAdmissionRequest,
} from '../threads/thread-admission.service';
import { ThreadRegistry } from '../threads/thread-registry';
import { ThreadRunState } from '../threads/thread-run-state';
import type { AdmittedRun } from './admitted-run';
import { propsForCaller } from './caller-user-id';
import { leaseGuardedGateway } from './lease-guarded-gateway';

/**
 * The admission half of a run (docs/behaviour/state.md#admission): the caller's props, the workspace, the
 * thread's durable admission (with the recovery of an execution the kernel forgot) and the cancel of a task
 * the admitted turn replaced. RunService streams what this admits.
 */
@Injectable()
export class RunAdmission {
  private readonly logger = new Logger(RunAdmission.name);

  constructor(
    @Inject(A2A_GATEWAY) private readonly gateway: A2aGateway,
    @Inject(CLOCK) private readonly clock: Clock,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly admission: ThreadAdmissionService,
    private readonly registry: ThreadRegistry,
    private readonly lifecycle: ServiceLifecycle,
    private readonly metrics: RunMetrics,
    private readonly activity: ActivityTracker,
  ) {}

  /** Everything that can refuse a run before the response starts, persisted before it starts. */
  async admit(request: RunRequest): Promise<AdmittedRun> {
    if (this.lifecycle.isDraining) throw new AguiError(ErrorCode.SERVICE_DRAINING, 'serviceDraining');
    const { input, principal } = request;
    const props = propsForCaller(request.props, principal, this.config.principalUserId);
    const cwd = await resolveCwd(
      props.cwd,
      await this.allowedCwdRoots(),
      this.config.homeDir,
      this.config.childEnvironment,
    ).catch((error: unknown) => {
      // The specific workspace message is not surfaced at HTTP level (docs/behaviour/http.md#request-checks step 9).
      throw error instanceof AguiError
        ? new AguiError(ErrorCode.INVALID_INPUT, 'invalidForwardedProps')
        : error;
    });
    const admissionStarted = this.clock.now();
    const { state, expiredTaskId, staleTaskId, admittedRunId } = await this.admitOrRecover({
      threadId: input.threadId,
      runId: input.runId,
      digest: request.digest,
      cwd,
      userId: props.userId ?? null,
      ...(principal !== undefined ? { principal } : {}),
      rosInvocationId: props.rosInvocationId,
      invocationFromThread: request.hasGenericProps === true && input.resume !== undefined,
      isResume: input.resume !== undefined,
      isGuidance: props.activeGuidance === true,
      isPipelineMode: props.runMode === 'pipeline',
      acceptsInterruptedRunId: this.config.genericClients,
      // Bound only when configured: a thread then refuses runs from another AgentCore session, or from
      // none (a request without the header is not let into a bound thread).
      ...(this.config.sessionBinding ? { agentCoreSessionId: request.agentCoreSessionId ?? null } : {}),
    });
    this.metrics.observeAdmission((this.clock.now() - admissionStarted) / 1000);
    const persistence = new ThreadRunState(this.registry, state, admittedRunId, this.logger);
    if (expiredTaskId) {
      this.metrics.interruptExpired();
      this.cancelReplaced(persistence, expiredTaskId, 'CancelTask of an expired interrupt failed');
    }
    if (staleTaskId) this.cancelReplaced(persistence, staleTaskId, 'CancelTask of a task left bound failed');
    this.logger.debug({
      msg: 'run admitted',
      threadId: input.threadId,
      runId: input.runId,
      ...(admittedRunId !== input.runId ? { admittedRunId } : {}),
    });
    return {
      input,
      // A generic client's resume answers the interrupted turn: its invocation id is the thread's.
      props: request.hasGenericProps ? { ...props, rosInvocationId: state.execution.rosInvocationId } : props,
      ...(request.pythonResume !== undefined ? { pythonResume: request.pythonResume } : {}),
      language: request.language,
      threadId: input.threadId,
      runId: input.runId,
      admittedRunId,
      executionId: state.execution.executionId,
      contextId: state.contextId,
      rosInvocationId: state.execution.rosInvocationId,
      cwd,
      persistence,
      face: request.face,
      ...(principal !== undefined ? { principal } : {}),
      admittedAtMs: this.clock.now(),
    };
  }

  /**
   * A new turn on a thread parked at an interrupt is refused RESUME_REQUIRED — unless the kernel has
   * forgotten that execution (restarted without it): then nothing can answer it any more, so it is ended
   * and the turn admitted (docs/clients.md "After a kernel restart"). One GetTask per such refusal, bounded.
   */
  private async admitOrRecover(request: ThreadAdmissionRequest): Promise<ThreadAdmission> {
    try {
      return await this.admission.admit(request);
    } catch (error) {
      if (!(error instanceof AguiError && error.code === ErrorCode.RESUME_REQUIRED)) throw error;
      const forgotten = await this.forgottenExecutionOf(request.threadId);
      if (forgotten === undefined) throw error;
      await this.admission.abandonExecution(request.threadId, forgotten);
      return this.admission.admit(request);
    }
  }

  /** The parked execution's id when the kernel answers that its task does not exist; else undefined. */
  private async forgottenExecutionOf(threadId: string): Promise<string | undefined> {
    const state = await this.registry.withLock(threadId, () => this.registry.load(threadId));
    const taskId = state?.execution.taskId;
    if (!state || !taskId) return undefined;
    try {
      await this.activity.track(() => this.gateway.getTask(taskId));
      return undefined;
    } catch (error) {
      return isTaskGone(error) ? state.execution.executionId : undefined;
    }
  }

  /** The configured roots, plus the generic-client workspace root in that mode (created on first use). */
  private async allowedCwdRoots(): Promise<readonly string[]> {
    if (!this.config.genericClients) return this.config.allowedCwdRoots;
    // resolveCwd drops roots that do not exist, so the root must exist before the first generic run.
    await mkdir(this.config.genericWorkspaceRoot, { recursive: true, mode: 0o700 });
    return [...this.config.allowedCwdRoots, this.config.genericWorkspaceRoot];
  }

  /**
   * The turn that replaced an execution cancels the task it still had bound, best effort: an expired
   * interrupt (they expired), or a run that never ended its task (the service stopped mid-run).
   */
  private cancelReplaced(persistence: ThreadRunState, taskId: string, failure: string): void {
    const { threadId } = persistence.state;
    this.activity
      .track(() => leaseGuardedGateway(this.gateway, persistence).cancelTask(taskId))
      .catch((error: unknown) => this.logger.warn({ msg: failure, threadId, taskId, error: String(error) }));
  }
}
