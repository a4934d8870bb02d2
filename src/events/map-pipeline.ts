import { EventType, type BaseEvent, type CustomEvent } from '@ag-ui/core';
import type { MapContext } from './map-context';
import { mapReasoning } from './map-reasoning';
import { mapText } from './map-text';
import { mapTool } from './map-tool';
import { parseUsageRecord } from './map-usage';
import { pipelineMessageId, pipelineStepOf } from './pipeline-coordinates';
import {
  PIPELINE_CUSTOM_EVENT_TYPES,
  PIPELINE_EVENT_NAME,
  PIPELINE_STEP_FINISH_TYPES,
  PIPELINE_STEP_START_TYPES,
} from './pipeline-event-types';
import { isWireObject, nonEmptyString, type WireObject } from '../wire/wire-value';

/**
 * Step 1 of the per-frame order (docs/behaviour/events.md#mapping-order): every envelope of `iac_code.pipelineBatch.events[]`, then
 * `iac_code.pipeline`, each through the live dedupe rule, then projected (docs/behaviour/events.md#pipeline-envelopes).
 */
export function mapPipelineFrame(iacCode: WireObject, ctx: MapContext): BaseEvent[] {
  const events: BaseEvent[] = [];
  const batch = iacCode.pipelineBatch;
  if (isWireObject(batch) && Array.isArray(batch.events)) {
    for (const envelope of batch.events) {
      if (isWireObject(envelope) && ctx.state.pipeline.deduper.acceptLive(envelope)) {
        pushAll(events, projectPipelineEnvelope(envelope, ctx));
      }
    }
  }
  const single = iacCode.pipeline;
  if (isWireObject(single) && ctx.state.pipeline.deduper.acceptLive(single)) {
    pushAll(events, projectPipelineEnvelope(single, ctx));
  }
  return events;
}

/**
 * One accepted envelope → AG-UI, in the original's order: its standard projection (text, reasoning, tool,
 * usage), its step lifecycle, then CUSTOM when its type is allow-listed. Live and recovered envelopes map
 * the same way (docs/behaviour/events.md#pipeline-recovery step 2).
 */
export function projectPipelineEnvelope(envelope: WireObject, ctx: MapContext): BaseEvent[] {
  const eventType = typeof envelope.eventType === 'string' ? envelope.eventType : '';
  const events = mapStandardSignal(envelope, eventType, ctx);
  pushAll(events, mapStepLifecycle(envelope, eventType, ctx));
  if (PIPELINE_CUSTOM_EVENT_TYPES.has(eventType)) {
    // The envelope goes out as-is: clients dedupe on `(name, value.eventId)` or the sequence (DOC-P).
    const custom: CustomEvent = {
      type: EventType.CUSTOM,
      name: PIPELINE_EVENT_NAME,
      value: envelope,
      timestamp: ctx.now,
    };
    events.push(custom);
  }
  return events;
}

/** The signals with standard AG-UI events of their own; `data` must be an object (docs/behaviour/events.md#pipeline-envelopes). */
function mapStandardSignal(envelope: WireObject, eventType: string, ctx: MapContext): BaseEvent[] {
  const data = envelope.data;
  if (!isWireObject(data)) return [];
  switch (eventType) {
    case 'text_delta': {
      const text = nonEmptyString(data.text);
      if (text === undefined) return [];
      // Parallel candidates stream at once: their messages must not close each other.
      return mapText(text, pipelineMessageId(envelope, ctx.state.pipeline.pipelineRunId), ctx, true);
    }
    case 'thinking_delta':
      return mapReasoning(data, ctx, pipelineMessageId(envelope, ctx.state.pipeline.pipelineRunId));
    case 'tool_started':
      // The Pipeline reports a tool once, with its whole input: START + ARGS + END.
      return mapTool(
        { status: 'input_complete', toolUseId: data.toolUseId, name: data.toolName, toolInput: data.input },
        ctx,
      );
    case 'tool_result':
      return mapTool(
        {
          status: data.isError === true ? 'failed' : 'completed',
          toolUseId: data.toolUseId,
          name: data.toolName,
          result: data.result,
        },
        ctx,
      );
    case 'usage': {
      const record = parseUsageRecord(data);
      if (record) ctx.state.usageRecords.push(record);
      return [];
    }
    default:
      return [];
  }
}

function mapStepLifecycle(envelope: WireObject, eventType: string, ctx: MapContext): BaseEvent[] {
  const isStart = PIPELINE_STEP_START_TYPES.has(eventType);
  if (!isStart && !PIPELINE_STEP_FINISH_TYPES.has(eventType)) return [];
  const step = pipelineStepOf(envelope);
  if (step === undefined) return [];
  const steps = ctx.state.pipeline.steps;
  return isStart ? steps.start(step, ctx.now) : steps.finish(step, ctx.now);
}

/** `push(...items)` without spreading large arrays onto the call stack. */
export function pushAll(target: BaseEvent[], items: readonly BaseEvent[]): void {
  for (const item of items) target.push(item);
}
