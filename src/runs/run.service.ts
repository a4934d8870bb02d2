import { mkdir } from 'node:fs/promises';
import { BeforeApplicationShutdown, Inject, Injectable, Logger } from '@nestjs/common';
import { A2A_GATEWAY, type A2aGateway } from '../a2a/a2a-gateway';
import { isTaskGone } from '../a2a/upstream-error';
import { ActivityTracker } from '../common/activity-tracker';
import { AguiError } from '../common/agui-error';
import { CLOCK, type Clock } from '../common/clock';
import { ErrorCode } from '../common/error-code';
import { ServiceLifecycle } from '../common/service-lifecycle';
import { APP_CONFIG, type AppConfig } from '../config/app-config';
import { MessageCatalogue } from '../i18n/message-catalogue';
import { ResponseValidator } from '../interrupts/response-validator';
import { RunMetrics } from '../metrics/run-metrics';
import { RunTelemetry } from '../metrics/run-telemetry';
import {
  ThreadAdmissionService,
  type ThreadAdmission,
  type ThreadAdmissionRequest,
} from '../threads/thread-admission.service';
import { ThreadRegistry } from '../threads/thread-registry';
import { ThreadRunState } from '../threads/thread-run-state';
import { resolveCwd } from '../run-input/resolve-cwd';
import { propsForCaller } from './caller-user-id';
import type { RunDeps } from './run-context';
import { RunEventHooks } from './run-event-hooks';
import { GuidanceRun } from './guidance-run';
import { leaseGuardedGateway } from './lease-guarded-gateway';
import { RunExecution } from './run-execution';
import type { RunRequest } from '../run-input/run-request';
import type { AdmittedRun } from './admitted-run';
import { newRunToken } from '../run-log/event-cursor';
import { RunLogRegistry } from '../run-log/run-log-registry';
import { RunDelivery, type RunDeliveryLog } from './run-delivery';
import type { RunSink } from './run-flow-control';

/**
 * Admits runs and streams an admitted run's AG-UI events into a transport's sink. It composes the
 * steps; the steps live in input/, threads/, events/ and RunExecution (CONTRIBUTING.md).
 */
@Injectable()
export class RunService implements BeforeApplicationShutdown {
  private readonly logger = new Logger(RunService.name);
  /** Runs whose stream is open, each with a promise that settles when its stream ends. */
  private readonly openRuns = new Map<RunExecution | GuidanceRun, Promise<void>>();

  constructor(
    @Inject(A2A_GATEWAY) private readonly gateway: A2aGateway,
    @Inject(CLOCK) private readonly clock: Clock,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly catalogue: MessageCatalogue,
    private readonly admission: ThreadAdmissionService,
    private readonly registry: ThreadRegistry,
    private readonly lifecycle: ServiceLifecycle,
    private readonly validator: ResponseValidator,
    private readonly metrics: RunMetrics,
    private readonly telemetry: RunTelemetry,
    private readonly activity: ActivityTracker,
    private readonly hooks: RunEventHooks,
    private readonly logs: RunLogRegistry,
  ) {}

  /** Everything that can refuse a run before the response starts (docs/behaviour/state.md#admission), persisted before it starts. */
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
      rawBody: request.rawBody,
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
      rawBody: request.rawBody,
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
   * Streams the run into `sink` (an SSE response or a WebSocket, docs/architecture.md#a-run) through the
   * one run handler, with the sink's back-pressure: while its buffer is over its high-water mark the run
   * stops pulling events, so the upstream is not read either (its TCP window closes). Returns what the
   * transport calls when its client leaves: that cancels the A2A task unless the run ended.
   */
  stream(run: AdmittedRun, sink: RunSink): () => void {
    // AgentCore's /ping reports HealthyBusy until the stream has ended, a cancel included.
    const endActivity = this.activity.begin();
    const deps: RunDeps = {
      gateway: leaseGuardedGateway(this.gateway, run.persistence),
      persistence: run.persistence,
      clock: this.clock,
      catalogue: this.catalogue,
      logger: this.logger,
      validate: (schema, payload) => this.validator.validate(schema, payload),
      interruptTtlSeconds: this.config.interruptTtlSeconds,
      cancelTimeoutMs: this.config.cancelTimeoutMs,
    };
    const execution = run.props.activeGuidance ? new GuidanceRun(run, deps) : new RunExecution(run, deps);
    const observed = this.telemetry.startRun(
      { threadId: run.threadId, runId: run.runId, executionId: run.executionId, face: run.face },
      run.admittedAtMs,
    );
    const hooked = this.hooks.startRun({
      threadId: run.threadId,
      runId: run.runId,
      executionId: run.executionId,
      rosInvocationId: run.rosInvocationId,
      face: run.face,
      ...(run.principal !== undefined ? { principal: run.principal } : {}),
      startedAtMs: run.admittedAtMs,
    });
    const delivery = new RunDelivery(
      execution,
      sink,
      [observed, hooked],
      () => run.persistence.release(),
      this.deliveryLog(run, execution),
    );
    const delivered = async () => {
      try {
        await delivery.deliver();
      } finally {
        this.openRuns.delete(execution);
        endActivity();
      }
    };
    // Inside the run's span, so the A2A calls' spans and trace headers are its children.
    this.openRuns.set(execution, observed.span.activate(delivered));
    return () => delivery.leave();
  }

  /**
   * The run's event ids, and its log when reattaching is on (docs/behaviour/reattach.md). A guidance run is
   * never retained: it is a side channel of the run it guides, which is.
   */
  private deliveryLog(run: AdmittedRun, execution: RunExecution | GuidanceRun): RunDeliveryLog {
    const runToken = newRunToken();
    if (execution instanceof GuidanceRun) return { runToken };
    const retained = this.logs.retain(
      {
        threadId: run.threadId,
        runId: run.runId,
        executionId: run.executionId,
        runToken,
        admittedState: run.persistence.state,
      },
      // The rule of a normal disconnect, deferred: the same call the transport makes when no window is set.
      () => execution.disconnect(),
    );
    return retained ? { runToken, retained } : { runToken };
  }

  /**
   * Graceful shutdown (Nest calls this before closing connections): refuse new runs, let open runs finish
   * for up to IAC_CODE_AGUI_DRAIN_SECONDS, then cancel the rest (A2A task cancelled, RUN_ERROR CANCELLED).
   * Runs parked at a durable interrupt hold no stream, so they are untouched and resumable after a restart.
   */
  async beforeApplicationShutdown(): Promise<void> {
    this.lifecycle.startDraining();
    if (this.openRuns.size === 0) return;
    this.logger.log({
      msg: 'draining open runs',
      openRuns: this.openRuns.size,
      drainMs: this.config.drainMs,
    });
    const allEnded = () => Promise.all([...this.openRuns.values()]).then(() => true);
    const isDrained = await Promise.race([allEnded(), delay(this.config.drainMs).then(() => false)]);
    if (isDrained) return;
    this.logger.warn({
      msg: 'drain time is over: cancelling the remaining runs',
      openRuns: this.openRuns.size,
    });
    for (const execution of this.openRuns.keys()) execution.shutdown();
    // Ending a run is quick once its upstream read is aborted; bound it anyway so shutdown never hangs.
    await Promise.race([allEnded(), delay(2000)]);
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

function delay(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms).unref());
}
