import type { BaseEvent, TokenUsage } from '@ag-ui/core';
import type { A2aFrame } from '../a2a/a2a-gateway';
import type { MapContext, RunMappingState } from './map-context';
import { mapArtifact } from './map-artifact';
import { mapReasoning } from './map-reasoning';
import { mapStatusText } from './map-text';
import { mapTool } from './map-tool';
import { aggregateUsage, parseUsageRecord } from './map-usage';
import type { RunIdentity } from './run-identity';
import { SpanTracker } from './span-tracker';
import { unwrapFrame, type UnwrappedFrame } from './unwrap-frame';

export type { RunIdentity } from './run-identity';

export interface MapOptions {
  /** Map the agent's status text (default true). Off for GetTask snapshots before a resume (reference §5.4 step 3). */
  readonly includeStatusText?: boolean;
}

/** One projection of a frame into AG-UI events; the mapper runs them in the order of reference §4.2. */
type FrameStep = (frame: UnwrappedFrame, ctx: MapContext, options: MapOptions) => BaseEvent[];

// Reference §4.2, without Pipeline envelopes (step 1): a Pipeline step goes first in this list when it lands.
const FRAME_STEPS: readonly FrameStep[] = [
  (frame, ctx) => mapReasoning(frame.iacCode?.thinking, ctx),
  (frame, ctx) => mapTool(frame.iacCode?.tool, ctx),
  (frame, ctx) => recordUsage(frame.iacCode?.usage, ctx),
  (frame, ctx) => mapArtifact(frame.body, ctx.now),
  (frame, ctx, options) => (options.includeStatusText === false ? [] : mapStatusText(frame, ctx)),
];

/**
 * Pure A2A → AG-UI projection for one run: feed it every A2A frame, then `closeAll` before the terminal
 * event. It does no I/O and reads no clock: `now` comes with each call and stamps every event it returns.
 * Create one per run with `new`: it holds that run's open spans, emitted-text flag, tool results and usage.
 */
export class A2aEventMapper {
  private readonly spans = new SpanTracker();
  private readonly state: RunMappingState = {
    hasEmittedText: false,
    toolResultIds: new Set(),
    usageRecords: [],
  };

  constructor(
    private readonly run: RunIdentity,
    private readonly newId: () => string,
  ) {}

  /** Whether any text content went out in this run. */
  get hasEmittedText(): boolean {
    return this.state.hasEmittedText;
  }

  map(frame: A2aFrame, now: number, options: MapOptions = {}): BaseEvent[] {
    const unwrapped = unwrapFrame(frame);
    const ctx = this.context(now);
    return FRAME_STEPS.flatMap((step) => step(unwrapped, ctx, options));
  }

  /** Ends every open span in the order of reference §4.8; call before RUN_FINISHED or an interrupt. */
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
