import type { BaseEvent, TokenUsage } from '@ag-ui/core';
import type { A2aFrame } from '../a2a/a2a-gateway';
import type { MapContext, RunMappingState } from './map-context';
import { mapArtifact } from './map-artifact';
import { mapPipelineFrame } from './map-pipeline';
import { mapPipelineRecovery } from './map-pipeline-recovery';
import { mapReasoning } from './map-reasoning';
import { mapStatusText } from './map-text';
import { mapTool } from './map-tool';
import { aggregateUsage, parseUsageRecord } from './map-usage';
import { PipelineDeduper } from './pipeline-deduper';
import { PipelineSteps } from './pipeline-steps';
import type { RunIdentity } from './run-identity';
import { SpanTracker } from './span-tracker';
import { TextSnapshots } from './text-snapshots';
import { unwrapFrame, type UnwrappedFrame } from './unwrap-frame';

export type { RunIdentity } from './run-identity';

export interface MapOptions {
  /** Map the agent's status text (default true). Off for GetTask snapshots before a resume (reference §5.4 step 3). */
  readonly includeStatusText?: boolean;
  /**
   * Map Pipeline envelopes (default true). Off for GetTask snapshots on resume: their Pipeline suffix is
   * stale, and authoritative recovery replaces it (reference §4.2 step 1, T-EV 25). Nothing is recorded then.
   */
  readonly includePipeline?: boolean;
}

/** What the thread persisted for the run that continues it (reference §6.2 binding fields). */
export interface MapperSeed {
  /** Durable open Pipeline step keys (`pipelineOpenSteps`). */
  readonly pipelineOpenSteps?: readonly string[];
  /** SHA-256 hex digests of text delivered before an interrupt (`textSnapshotDigests`). */
  readonly textSnapshotDigests?: readonly string[];
  /** The persisted recovery cursor (`pipelineSequence`): a floor for `pipelineCursor`, not a live filter. */
  readonly pipelineSequence?: number;
  /** The Pipeline run id a previous recovery snapshot named. */
  readonly pipelineRunId?: string;
}

/** One projection of a frame into AG-UI events; the mapper runs them in the order of reference §4.2. */
type FrameStep = (frame: UnwrappedFrame, ctx: MapContext, options: MapOptions) => BaseEvent[];

// Reference §4.2, in order: Pipeline envelopes, thinking, tool, usage, artifact, status text.
const FRAME_STEPS: readonly FrameStep[] = [
  (frame, ctx, options) => (options.includePipeline === false ? [] : mapPipelineFrame(frame.iacCode, ctx)),
  (frame, ctx) => mapReasoning(frame.iacCode?.thinking, ctx),
  (frame, ctx) => mapTool(frame.iacCode?.tool, ctx),
  (frame, ctx) => recordUsage(frame.iacCode?.usage, ctx),
  (frame, ctx) => mapArtifact(frame.body, ctx.now),
  (frame, ctx, options) => (options.includeStatusText === false ? [] : mapStatusText(frame, ctx)),
];

/**
 * Pure A2A → AG-UI projection for one run: feed it every A2A frame, then `closeAll` before the terminal
 * event. It does no I/O and reads no clock: `now` comes with each call and stamps every event it returns.
 * Create one per run with `new`: it holds that run's open spans, emitted-text flag, tool results, usage,
 * Pipeline dedupe state, and the thread state it was seeded with (durable steps, text digests), whose
 * updated values the run path reads back to persist.
 */
export class A2aEventMapper {
  private readonly textSnapshots: TextSnapshots;
  private readonly spans: SpanTracker;
  private readonly state: RunMappingState;
  private readonly seededSequence: number;

  constructor(
    private readonly run: RunIdentity,
    private readonly newId: () => string,
    seed: MapperSeed = {},
  ) {
    const textSnapshots = new TextSnapshots(seed.textSnapshotDigests);
    this.textSnapshots = textSnapshots;
    // A message that closes is finalised for replay stripping (reference §4.3).
    this.spans = new SpanTracker((messageId) => textSnapshots.finalise(messageId));
    this.seededSequence = seed.pipelineSequence ?? 0;
    this.state = {
      hasEmittedText: false,
      toolResultIds: new Set(),
      usageRecords: [],
      textSnapshots,
      pipeline: {
        pipelineRunId: seed.pipelineRunId || `pipeline-${run.threadId}`,
        deduper: new PipelineDeduper(),
        steps: new PipelineSteps(this.spans, seed.pipelineOpenSteps),
      },
    };
  }

  /** Whether any text content went out in this run. */
  get hasEmittedText(): boolean {
    return this.state.hasEmittedText;
  }

  /** Durable open Pipeline step keys, sorted: persist as `pipelineOpenSteps` (reference §4.5, §6.2). */
  get durableOpenSteps(): string[] {
    return this.state.pipeline.steps.durableKeys;
  }

  /** Delivered-text digests, sorted: persist as `textSnapshotDigests` (reference §4.3). */
  get textSnapshotDigests(): string[] {
    return this.textSnapshots.sortedDigests;
  }

  /**
   * `max(seeded pipelineSequence, this run's cursor)`: persist as `pipelineSequence` and pass as
   * `afterSequence` to recovery (reference §4.6 "When recovery is called"). The run's own cursor, which
   * filters live envelopes, starts at 0 (reference §4.5).
   */
  get pipelineCursor(): number {
    return Math.max(this.seededSequence, this.state.pipeline.deduper.sequenceCursor);
  }

  /** `pipeline-<threadId>` until a recovery snapshot (or the seed) names the Pipeline run. */
  get pipelineRunId(): string {
    return this.state.pipeline.pipelineRunId;
  }

  /** How many distinct Pipeline event ids this run has accepted (one dedupe entry each). */
  get seenPipelineEventIds(): number {
    return this.state.pipeline.deduper.seenCount;
  }

  hasSeenPipelineEvent(eventId: string): boolean {
    return this.state.pipeline.deduper.hasSeen(eventId);
  }

  map(frame: A2aFrame, now: number, options: MapOptions = {}): BaseEvent[] {
    return this.mapUnwrapped(unwrapFrame(frame), now, options);
  }

  /** `map` for a frame the caller already unwrapped (the run loop does, once per frame). */
  mapUnwrapped(unwrapped: UnwrappedFrame, now: number, options: MapOptions = {}): BaseEvent[] {
    const ctx = this.context(now);
    const events: BaseEvent[] = [];
    for (const step of FRAME_STEPS) for (const event of step(unwrapped, ctx, options)) events.push(event);
    return events;
  }

  /** STEP_STARTED for each durable open step, sorted by key: call right after RUN_STARTED (reference §4.8 step 2). */
  reopenDurableSteps(now: number): BaseEvent[] {
    return this.state.pipeline.steps.reopen(now);
  }

  /** Maps the `/iac-code/pipeline/state` JSON of a resume (reference §4.6). */
  mapPipelineRecovery(state: unknown, now: number): BaseEvent[] {
    return mapPipelineRecovery(state, this.context(now));
  }

  /**
   * The TOOL_CALL_RESULT of a question tool whose answer A2A accepted (reference §4.4 "Resolved question
   * tools"): once per tool id, like any tool result, so a later `completed` from A2A is not repeated.
   */
  resolveTool(toolCallId: string, content: string, now: number): BaseEvent[] {
    return mapTool({ status: 'completed', toolUseId: toolCallId, result: content }, this.context(now));
  }

  /** Digests all text of this run so far; call before committing an interrupt (reference §4.3). */
  finaliseTextSnapshots(): void {
    this.textSnapshots.finaliseAll();
  }

  /**
   * Ends every open span in the order of reference §4.8; call before RUN_FINISHED or an interrupt. The
   * durable open-step set is kept: a later run reopens those steps.
   */
  closeAll(now: number): BaseEvent[] {
    return this.spans.closeAll(now);
  }

  /** The run's usage grouped by provider/model, or undefined when the upstream reported none (§4.7). */
  usage(): TokenUsage[] | undefined {
    return aggregateUsage(this.state.usageRecords);
  }

  private context(now: number): MapContext {
    return { runId: this.run.runId, spans: this.spans, state: this.state, newId: this.newId, now };
  }
}

/** Usage produces no event: it is only recorded, for the terminal event (reference §4.2 step 4). */
function recordUsage(usage: unknown, ctx: MapContext): BaseEvent[] {
  const record = parseUsageRecord(usage);
  if (record) ctx.state.usageRecords.push(record);
  return [];
}
