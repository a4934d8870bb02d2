import { EventType, type BaseEvent, type ReasoningMessageContentEvent } from '@ag-ui/core';
import type { MapContext } from './map-context';
import { isWireObject } from '../wire/wire-value';

/**
 * `iac_code.thinking` → REASONING_* (docs/behaviour/events.md#text-and-reasoning). Only `raw_thinking` with text counts; the kernel
 * sends it when run with `--thinking-exposure all`. The id follows the text it precedes:
 * `reasoning-<message id | current message id | runId>`; Pipeline thinking passes its own message id.
 */
export function mapReasoning(thinking: unknown, ctx: MapContext, messageId?: string): BaseEvent[] {
  if (!isWireObject(thinking) || thinking.type !== 'raw_thinking') return [];
  const text = thinking.text;
  if (typeof text !== 'string' || text.length === 0) return [];
  const reasoningId = `reasoning-${messageId ?? ctx.spans.currentMessageId ?? ctx.runId}`;
  const content: ReasoningMessageContentEvent = {
    type: EventType.REASONING_MESSAGE_CONTENT,
    messageId: reasoningId,
    delta: text,
    timestamp: ctx.now,
  };
  return [...ctx.spans.openReasoning(reasoningId, ctx.now), content];
}
