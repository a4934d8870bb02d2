import { EventType, type BaseEvent, type StepFinishedEvent, type StepStartedEvent } from '@ag-ui/core';
import { stepNameOfKey, type PipelineStepRef } from './pipeline-coordinates';
import type { SpanTracker } from './span-tracker';

/**
 * Pipeline steps have two lifecycles (docs/behaviour/events.md#pipeline-envelopes "Step lifecycle", docs/behaviour/events.md#run-lifecycle): the durable open-step set is
 * the Pipeline's own state, persisted with the thread as `pipelineOpenSteps` and surviving interrupts; an
 * AG-UI STEP span belongs to one RUN_STARTED/RUN_FINISHED pair and must close before the run ends. The
 * durable set lives here; the run's STEP spans live in the `SpanTracker`, so `closeAll` finishes them
 * without touching the durable set. One per run (`new`), seeded with the thread's durable keys.
 */
export class PipelineSteps {
  private readonly durable: Set<string>;

  constructor(
    private readonly spans: SpanTracker,
    durableKeys: readonly string[] = [],
  ) {
    this.durable = new Set(durableKeys);
  }

  /** The durable open-step keys, sorted: what the run path persists as `pipelineOpenSteps`. */
  get durableKeys(): string[] {
    return [...this.durable].sort();
  }

  /** A start type: the step becomes durable, and opens in this run unless it already is. */
  start(step: PipelineStepRef, now: number): BaseEvent[] {
    this.durable.add(step.key);
    return this.spans.openStep(step.key, step.stepName, now);
  }

  /**
   * A finish type: ignored unless the step is durably open. A step opened in this run finishes its span;
   * one that is durable but was not opened in this run (recovery seen before `reopen`) gets a zero-length
   * STARTED + FINISHED pair, never an orphan STEP_FINISHED that `verifyEvents` would reject.
   */
  finish(step: PipelineStepRef, now: number): BaseEvent[] {
    if (!this.durable.delete(step.key)) return [];
    if (this.spans.isStepOpen(step.key)) return this.spans.closeStep(step.key, now);
    const started: StepStartedEvent = {
      type: EventType.STEP_STARTED,
      stepName: step.stepName,
      timestamp: now,
    };
    const finished: StepFinishedEvent = {
      type: EventType.STEP_FINISHED,
      stepName: step.stepName,
      timestamp: now,
    };
    return [started, finished];
  }

  /** STEP_STARTED for every durable step not open in this run, sorted by key (docs/behaviour/events.md#run-lifecycle step 2). */
  reopen(now: number): BaseEvent[] {
    const events: BaseEvent[] = [];
    for (const key of this.durableKeys) events.push(...this.spans.openStep(key, stepNameOfKey(key), now));
    return events;
  }
}
