import { BeforeApplicationShutdown, Inject, Injectable, Logger } from '@nestjs/common';
import { A2A_GATEWAY, type A2aGateway } from '../a2a/a2a-gateway';
import { ActivityTracker } from '../common/activity-tracker';
import { CLOCK, type Clock } from '../common/clock';
import { APP_CONFIG, type AppConfig } from '../config/app-config';
import { ServiceLifecycle } from '../common/service-lifecycle';
import { MessageCatalogue } from '../i18n/message-catalogue';
import { ResponseValidator } from '../interrupts/response-validator';
import { RunTelemetry } from '../metrics/run-telemetry';
import type { RunDeps } from './run-context';
import { RunEventHooks } from './run-event-hooks';
import { GuidanceRun } from './guidance-run';
import { leaseGuardedGateway } from './lease-guarded-gateway';
import { RunAdmission } from './run-admission';
import { RunExecution } from './run-execution';
import type { RunRequest } from '../run-input/run-request';
import type { AdmittedRun } from './admitted-run';
import { newRunToken } from '../run-log/event-cursor';
import { RunLogRegistry } from '../run-log/run-log-registry';
import { framesOf, type RunFrame } from '../run-log/run-frames';
import type { Observable } from 'rxjs';
import { RunDelivery, type RunDeliveryLog } from './run-delivery';
import type { RunSink } from './run-flow-control';
import { RUN_EVENT_OPERATORS, type RunEventOperator } from './run-event-operator';

/**
 * Admits runs and gives an admitted run as a cold Observable of its AG-UI event frames, which a transport
 * renders (SSE or /ws). It composes the steps; the steps live in input/, threads/, events/ and
 * RunExecution (CONTRIBUTING.md).
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
    private readonly admission: RunAdmission,
    private readonly lifecycle: ServiceLifecycle,
    private readonly validator: ResponseValidator,
    private readonly telemetry: RunTelemetry,
    private readonly activity: ActivityTracker,
    private readonly hooks: RunEventHooks,
    private readonly logs: RunLogRegistry,
    @Inject(RUN_EVENT_OPERATORS) private readonly operators: readonly RunEventOperator[],
  ) {}

  /** Everything that can refuse a run before the response starts, persisted before it starts (RunAdmission). */
  admit(request: RunRequest): Promise<AdmittedRun> {
    return this.admission.admit(request);
  }

  /**
   * The run (docs/architecture.md#a-run): subscribing starts it, each event comes as its frame (cursor and
   * record), and it completes after the terminal event; a run's failure is a RUN_ERROR event, never an
   * error of the Observable. Unsubscribing before that is the client leaving: the A2A task is cancelled
   * (or, with a reattach window, the run detaches). The renderer holds a frame's `demand` while its socket
   * is over its high-water mark, and the run pulls no event meanwhile, so the upstream is not read either.
   */
  events(run: AdmittedRun): Observable<RunFrame> {
    return framesOf((sink) => this.stream(run, sink));
  }

  /**
   * The sink-level form `events` wraps: streams the run into `sink` through the one run handler (which
   * waits on `sink.whenWritable()`); returns what to call when its client leaves.
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
      this.operators,
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
}

function delay(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms).unref());
}
