import { Inject, Injectable, Logger } from '@nestjs/common';
import type { BaseEvent } from '@ag-ui/core';
import { CLOCK, type Clock } from '../common/clock';
import { DISCONNECTED, runOutcomeCode } from '../metrics/run-outcome-code';
import {
  RUN_EVENT_HOOKS,
  type RunEventHook,
  type RunHookContext,
  type RunOutcomeReport,
} from './run-event-hook';

/** One run as the hooks see it; created by RunEventHooks.startRun. */
export class HookedRun {
  private eventCount = 0;
  private lastOutcome: string | undefined;
  private isEnded = false;
  /** Hooks that already failed in this run: one log line per hook and run, not one per event. */
  private readonly failedHooks = new Set<number>();

  constructor(
    private readonly hooks: readonly RunEventHook[],
    readonly context: RunHookContext,
    private readonly clock: Clock,
    private readonly logger: Logger,
  ) {}

  event(event: BaseEvent): void {
    this.eventCount++;
    this.lastOutcome = runOutcomeCode(event) ?? this.lastOutcome;
    this.hooks.forEach((hook, index) => {
      if (hook.onEvent) this.call(index, 'onEvent', () => hook.onEvent?.(event, this.context));
    });
  }

  end(): void {
    if (this.isEnded) return;
    this.isEnded = true;
    const report = outcomeReport(this.lastOutcome, this.clock.now(), this.eventCount);
    this.hooks.forEach((hook, index) => {
      if (hook.onRunEnd) this.call(index, 'onRunEnd', () => hook.onRunEnd?.(report, this.context));
    });
  }

  /** Calls a hook without awaiting it: a sync throw and a rejection are both caught and logged. */
  private call(index: number, method: string, invoke: () => void | PromiseLike<void>): void {
    try {
      const result = invoke();
      if (isPromiseLike(result)) result.then(undefined, (error: unknown) => this.fail(index, method, error));
    } catch (error) {
      this.fail(index, method, error);
    }
  }

  private fail(index: number, method: string, error: unknown): void {
    if (this.failedHooks.has(index)) return;
    this.failedHooks.add(index);
    this.logger.error({
      msg: 'run event hook failed; later failures of this hook in this run are not logged',
      hook: index,
      method,
      threadId: this.context.threadId,
      runId: this.context.runId,
      error: error instanceof Error ? (error.stack ?? error.message) : String(error),
    });
  }
}

/**
 * Hands every AG-UI event and every run outcome to the RUN_EVENT_HOOKS . The stream never
 * waits for a hook and never sees its errors: hooks are observers, not middleware.
 */
@Injectable()
export class RunEventHooks {
  private readonly logger = new Logger(RunEventHooks.name);

  constructor(
    @Inject(RUN_EVENT_HOOKS) private readonly hooks: readonly RunEventHook[],
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  startRun(context: RunHookContext): HookedRun {
    return new HookedRun(this.hooks, Object.freeze({ ...context }), this.clock, this.logger);
  }
}

function outcomeReport(outcome: string | undefined, endedAtMs: number, eventCount: number): RunOutcomeReport {
  if (outcome === undefined || outcome === DISCONNECTED)
    return { outcome: 'disconnected', endedAtMs, eventCount };
  if (outcome === 'success' || outcome === 'interrupt') return { outcome, endedAtMs, eventCount };
  return { outcome: 'error', errorCode: outcome, endedAtMs, eventCount };
}

function isPromiseLike(value: unknown): value is PromiseLike<unknown> {
  return typeof (value as PromiseLike<unknown> | undefined)?.then === 'function';
}
