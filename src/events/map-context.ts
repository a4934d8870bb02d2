import type { TokenUsage } from '@ag-ui/core';
import type { SpanTracker } from './span-tracker';

/** What one run's mapping remembers between frames, besides its open spans. */
export interface RunMappingState {
  /** Set once any TEXT_MESSAGE_CONTENT went out; drives the assistantFinal suppression (reference §4.3). */
  hasEmittedText: boolean;
  /** Tool ids whose TOOL_CALL_RESULT went out: snapshot + live must not repeat it (reference §4.4). */
  readonly toolResultIds: Set<string>;
  /** Usage records in arrival order, aggregated at the end of the run (reference §4.7). */
  readonly usageRecords: TokenUsage[];
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
