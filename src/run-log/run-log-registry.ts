import { Inject, Injectable, Logger, Optional } from '@nestjs/common';
import { APP_CONFIG, type AppConfig } from '../config/app-config';
import { ByteBudget } from './byte-budget';
import { RetainedRun, type RetainedRunIdentity } from './retained-run';
import { RunEventLog } from './run-event-log';
import { SHARED_RUN_LOG, type SharedRunLog } from './shared-run-log';

/**
 * The runs of this process that may be reattached (docs/behaviour/reattach.md), by execution and by thread:
 * running ones, and ended ones for IAC_CODE_AGUI_REATTACH_SECONDS more. Off (nothing retained, a disconnect
 * cancels at once) while that setting is 0.
 */
@Injectable()
export class RunLogRegistry {
  private readonly logger = new Logger(RunLogRegistry.name);
  private readonly byExecution = new Map<string, RetainedRun>();
  private readonly byThread = new Map<string, RetainedRun>();
  private readonly total: ByteBudget;

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    /** Redis mode: the logs every replica reads; null on a single host. */
    @Optional() @Inject(SHARED_RUN_LOG) readonly shared: SharedRunLog | null = null,
  ) {
    this.total = new ByteBudget(config.reattach.maxBytesTotal);
  }

  get isEnabled(): boolean {
    return this.config.reattach.graceMs > 0;
  }

  /** Bytes every log of the process holds. */
  get heldBytes(): number {
    return this.total.usedBytes;
  }

  /**
   * A new run to retain, or undefined when reattaching is off. `leave` is the run's own "the client left"
   * (the cancel a normal disconnect makes), called once the window passed.
   */
  retain(identity: RetainedRunIdentity, leave: () => void): RetainedRun | undefined {
    const { reattach } = this.config;
    if (reattach.graceMs <= 0) return undefined;
    const { shared } = this;
    const log = new RunEventLog(identity.runToken, {
      maxEvents: reattach.maxEventsPerRun,
      maxBytes: reattach.maxBytesPerRun,
      total: this.total,
    });
    const run: RetainedRun = new RetainedRun(identity, log, {
      graceMs: reattach.graceMs,
      abandon: () => {
        this.logger.warn({
          msg: 'no client reattached within the window: cancelling the run',
          threadId: identity.threadId,
          runId: identity.runId,
          executionId: identity.executionId,
        });
        this.drop(run);
        shared?.dropped(identity);
        leave();
      },
      ended: () => {
        shared?.ended(identity, log.lastSequence);
        setTimeout(() => this.drop(run), reattach.graceMs).unref();
      },
      ...(shared
        ? {
            appended: (sequence, frame) => shared.appended(identity, sequence, frame),
            remoteWindowLeftMs: () => shared.remoteWindowLeftMs(identity.runToken),
          }
        : {}),
    });
    shared?.started(identity);
    this.byExecution.set(identity.executionId, run);
    this.byThread.set(identity.threadId, run);
    return run;
  }

  forExecution(executionId: string): RetainedRun | undefined {
    return this.byExecution.get(executionId);
  }

  forThread(threadId: string): RetainedRun | undefined {
    return this.byThread.get(threadId);
  }

  private drop(run: RetainedRun): void {
    const { executionId, threadId } = run.identity;
    if (this.byExecution.get(executionId) === run) this.byExecution.delete(executionId);
    if (this.byThread.get(threadId) === run) this.byThread.delete(threadId);
    run.log.release();
  }
}
