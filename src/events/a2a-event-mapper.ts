import type { BaseEvent, TokenUsage } from '@ag-ui/core';
import type { A2aFrame } from '../wire/a2a-wire';
import type { MapContext, RunMappingState } from './map-context';
import { mapArtifact } from './map-artifact';
import { mapPipelineFrame, pushAll } from './map-pipeline';
import { mapPipelineRecovery } from './map-pipeline-recovery';
import { mapReasoning } from './map-reasoning';
import { holdsFinalText, mapStatusText } from './map-text';
import { mapTool } from './map-tool';
import { aggregateUsage, parseUsageRecord } from './map-usage';
import { PipelineDeduper } from './pipeline-deduper';
import { PipelineSteps } from './pipeline-steps';
import type { RunIdentity } from './run-identity';
import { SpanTracker } from './span-tracker';
import { TextSnapshots } from './text-snapshots';
import { unwrapFrame, type UnwrappedFrame } from '../wire/unwrap-frame';

export type { RunIdentity } from './run-identity';

export interface MapOptions {
  /** Map the agent's status text (default true). Off for GetTask snapshots before a resume (docs/behaviour/interrupts.md#resume-preparation step 3). */
  readonly includeStatusText?: boolean;
  /**
   * Map Pipeline envelopes (default true). Off for GetTask snapshots on resume: their Pipeline suffix is
   * stale, and authoritative recovery replaces it (docs/behaviour/events.md#mapping-order step 1). Nothing is recorded then.
   */
  readonly includePipeline?: boolean;
}

/** What the thread persisted for the run that continues it (docs/behaviour/state.md#the-document binding fields). */
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
    // A message that closes is finalised for replay stripping (docs/behaviour/events.md#text-and-reasoning).
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

  /** Durable open Pipeline step keys, sorted: persist as `pipelineOpenSteps` (docs/behaviour/events.md#pipeline-envelopes, docs/behaviour/state.md#the-document). */
  get durableOpenSteps(): string[] {
    return this.state.pipeline.steps.durableKeys;
  }

  /** Delivered-text digests, sorted: persist as `textSnapshotDigests` (docs/behaviour/events.md#text-and-reasoning). */
  get textSnapshotDigests(): string[] {
    return this.textSnapshots.sortedDigests;
  }

  /**
   * `max(seeded pipelineSequence, this run's cursor)`: persist as `pipelineSequence` and pass as
   * `afterSequence` to recovery (docs/behaviour/events.md#pipeline-recovery "When recovery is called"). The run's own cursor, which
   * filters live envelopes, starts at 0 (docs/behaviour/events.md#pipeline-envelopes).
   */
  get pipelineCursor(): number {
    return Math.max(this.seededSequence, this.state.pipeline.deduper.sequenceCursor);
  }

  /** `pipeline-<threadId>` until a recovery snapshot (or the stored state) names the Pipeline run. */
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

  /**
   * `map` for a frame the caller already unwrapped (the run loop does, once per frame). The steps run in
   * the order of docs/behaviour/events.md#mapping-order: Pipeline envelopes, thinking, tool, usage,
   * artifact, status text. A step whose field the frame lacks is not called: this runs for every frame of
   * every run, and a text delta has only the status text (docs/benchmarks.md).
   */
  mapUnwrapped(unwrapped: UnwrappedFrame, now: number, options: MapOptions = {}): BaseEvent[] {
    const ctx = this.context(now);
    const events: BaseEvent[] = [];
    const iacCode = unwrapped.iacCode;
    if (iacCode !== undefined) {
      if (
        options.includePipeline !== false &&
        (iacCode.pipelineBatch !== undefined || iacCode.pipeline !== undefined)
      ) {
        pushAll(events, mapPipelineFrame(iacCode, ctx));
      }
      if (iacCode.thinking !== undefined) pushAll(events, mapReasoning(iacCode.thinking, ctx));
      if (iacCode.tool !== undefined) pushAll(events, mapTool(iacCode.tool, ctx));
      if (iacCode.usage !== undefined) recordUsage(iacCode.usage, ctx);
    }
    if (unwrapped.body.artifact !== undefined) pushAll(events, mapArtifact(unwrapped.body, ctx.now));
    if (options.includeStatusText === false) return events;
    // A text delta has only this step: its fresh array is the result, no copy.
    const text = mapStatusText(unwrapped, ctx);
    if (events.length === 0) return text;
    pushAll(events, text);
    return events;
  }

  /**
   * The status text of a task snapshot mapped without it, when it is the turn's final text (holdsFinalText)
   * and nothing went out yet: a re-adopted turn ends by the rules of a normal run (docs/behaviour/state.md#re-adoption).
   */
  mapFinalTextOf(snapshot: UnwrappedFrame, now: number): BaseEvent[] {
    // Once text went out, a later snapshot adds nothing: the text is never given twice.
    if (this.state.hasEmittedText || !holdsFinalText(snapshot)) return [];
    return mapStatusText(snapshot, this.context(now));
  }

  /** STEP_STARTED for each durable open step, sorted by key: call right after RUN_STARTED (docs/behaviour/events.md#run-lifecycle step 2). */
  reopenDurableSteps(now: number): BaseEvent[] {
    return this.state.pipeline.steps.reopen(now);
  }

  /** Maps the `/iac-code/pipeline/state` JSON of a resume (docs/behaviour/events.md#pipeline-recovery). */
  mapPipelineRecovery(state: unknown, now: number): BaseEvent[] {
    return mapPipelineRecovery(state, this.context(now));
  }

  /**
   * The TOOL_CALL_RESULT of a question tool whose answer A2A accepted (docs/behaviour/events.md#tools "Resolved question
   * tools"): once per tool id, like any tool result, so a later `completed` from A2A is not repeated.
   */
  resolveTool(toolCallId: string, content: string, now: number): BaseEvent[] {
    return mapTool({ status: 'completed', toolUseId: toolCallId, result: content }, this.context(now));
  }

  /** Digests all text of this run so far; call before committing an interrupt (docs/behaviour/events.md#text-and-reasoning). */
  finaliseTextSnapshots(): void {
    this.textSnapshots.finaliseAll();
  }

  /**
   * Ends every open span in the order of docs/behaviour/events.md#run-lifecycle; call before RUN_FINISHED or an interrupt. The
   * durable open-step set is kept: a later run reopens those steps.
   */
  closeAll(now: number): BaseEvent[] {
    return this.spans.closeAll(now);
  }

  /** The run's usage grouped by provider/model, or undefined when the upstream reported none (docs/behaviour/events.md#usage). */
  usage(): TokenUsage[] | undefined {
    return aggregateUsage(this.state.usageRecords);
  }

  private context(now: number): MapContext {
    return { runId: this.run.runId, spans: this.spans, state: this.state, newId: this.newId, now };
  }
}

/** Usage produces no event: it is only recorded, for the terminal event (docs/behaviour/events.md#mapping-order step 4). */
function recordUsage(usage: unknown, ctx: MapContext): void {
  const record = parseUsageRecord(usage);
  if (record) ctx.state.usageRecords.push(record);
}
