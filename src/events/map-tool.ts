import {
  EventType,
  type BaseEvent,
  type CustomEvent,
  type ToolCallArgsEvent,
  type ToolCallResultEvent,
} from '@ag-ui/core';
import { compactJson } from '../wire/compact-json';
import type { MapContext } from './map-context';
import { isWireObject, nonEmptyString, type WireObject } from '../wire/wire-value';

export const TOOL_PROGRESS_EVENT_NAME = 'iac-code.tool-progress.v1';

/**
 * `iac_code.tool` → TOOL_CALL_* (docs/behaviour/events.md#tools). Statuses: `started` opens the call; `input_complete`
 * opens it if needed, sends the whole input as one ARGS delta and ends it; `completed`/`failed` send one
 * TOOL_CALL_RESULT per tool id (a GetTask snapshot and the live stream can both report it); `progress`
 * becomes a CUSTOM event; `input_delta` and unknown statuses map to nothing.
 */
export function mapTool(tool: unknown, ctx: MapContext): BaseEvent[] {
  if (!isWireObject(tool)) return [];
  const status = typeof tool.status === 'string' ? tool.status : '';
  const toolCallId = nonEmptyString(tool.toolUseId) ?? `tool-${ctx.newId()}`;
  // A tool starting ends the text it follows, for replay purposes: digest it now (docs/behaviour/events.md#text-and-reasoning, docs/behaviour/events.md#tools).
  if ((status === 'started' || status === 'input_complete') && ctx.spans.currentMessageId !== undefined) {
    ctx.state.textSnapshots.finalise(ctx.spans.currentMessageId);
  }
  switch (status) {
    case 'started':
      return ctx.spans.openTool(toolCallId, toolNameOf(tool), ctx.now);
    case 'input_complete':
      return [
        ...ctx.spans.openTool(toolCallId, toolNameOf(tool), ctx.now),
        toolArgs(toolCallId, tool, ctx.now),
        ...ctx.spans.closeTool(toolCallId, ctx.now),
      ];
    case 'completed':
    case 'failed':
      return toolResult(toolCallId, tool.result, ctx);
    case 'progress':
      return [toolProgress(tool, ctx.now)];
    default:
      return [];
  }
}

function toolNameOf(tool: WireObject): string {
  return nonEmptyString(tool.name) ?? 'tool';
}

/** Compact sorted JSON of `toolInput`, else of `{summary: inputSummary}` (the kernel may send only a summary). */
function toolArgs(toolCallId: string, tool: WireObject, now: number): ToolCallArgsEvent {
  const input = tool.toolInput ?? { summary: tool.inputSummary ?? null };
  return { type: EventType.TOOL_CALL_ARGS, toolCallId, delta: compactJson(input), timestamp: now };
}

function toolResult(toolCallId: string, result: unknown, ctx: MapContext): BaseEvent[] {
  if (ctx.state.toolResultIds.has(toolCallId)) return [];
  ctx.state.toolResultIds.add(toolCallId);
  // No error flag for `failed`: AG-UI 1.0 TOOL_CALL_RESULT has none, and the original sends none either.
  const event: ToolCallResultEvent = {
    type: EventType.TOOL_CALL_RESULT,
    messageId: `tool-result-${toolCallId}`,
    toolCallId,
    content: typeof result === 'string' ? result : compactJson(result),
    role: 'tool',
    timestamp: ctx.now,
  };
  return [event];
}

function toolProgress(tool: WireObject, now: number): CustomEvent {
  return {
    type: EventType.CUSTOM,
    name: TOOL_PROGRESS_EVENT_NAME,
    value: { schemaVersion: 1, ...tool },
    timestamp: now,
  };
}
