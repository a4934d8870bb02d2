import type { TokenUsage } from '@ag-ui/core';
import type { PipelineDeduper } from './pipeline-deduper';
import type { PipelineSteps } from './pipeline-steps';
import type { SpanTracker } from './span-tracker';
import type { TextSnapshots } from './text-snapshots';

/** What one run's mapping remembers between frames, besides its open spans. */
export interface RunMappingState {
  /** Set once any TEXT_MESSAGE_CONTENT went out; drives the assistantFinal suppression (docs/behaviour/events.md#text-and-reasoning). */
  hasEmittedText: boolean;
  /** Tool ids whose TOOL_CALL_RESULT went out: snapshot + live must not repeat it (docs/behaviour/events.md#tools). */
  readonly toolResultIds: Set<string>;
  /** Usage records in arrival order, aggregated at the end of the run (docs/behaviour/events.md#usage). */
  readonly usageRecords: TokenUsage[];
  /** Delivered-text digests for cumulative-replay stripping across resumes (docs/behaviour/events.md#text-and-reasoning). */
  readonly textSnapshots: TextSnapshots;
  /** Pipeline envelope state (docs/behaviour/events.md#pipeline-envelopes, docs/behaviour/events.md#pipeline-recovery). */
  readonly pipeline: PipelineMappingState;
}

export interface PipelineMappingState {
  /** Names Pipeline text streams and the recovery snapshot; `pipeline-<threadId>` until a snapshot names it. */
  pipelineRunId: string;
  readonly deduper: PipelineDeduper;
  readonly steps: PipelineSteps;
}

/** Everything a `map…` step needs for one frame. Built by `A2aEventMapper.map` per frame. */
export interface MapContext {
  readonly runId: string;
  readonly spans: SpanTracker;
  readonly state: RunMappingState;
  /** Random hex for `assistant-<hex>` / `tool-<hex>` fallback ids. */
  readonly newId: () => string;
  /** Integer epoch milliseconds stamped on every event of this frame. */
  readonly now: number;
}
