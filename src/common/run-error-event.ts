import { EventType, type RunErrorEvent, type TokenUsage } from '@ag-ui/core';

/**
 * The one builder of RUN_ERROR: exactly `{type, code, message, timestamp}` plus `usage` when known, in that
 * order of keys, whether a run ends with it, a refusal before the stream is one, or `/ws` refuses an input.
 * No threadId/runId: AG-UI 1.0's RUN_ERROR defines none, although the original sent them
 * (docs/behaviour/events.md#usage, docs/architecture.md#decisions).
 */
export function runErrorEvent(
  code: string,
  message: string,
  now: number,
  usage?: TokenUsage[],
): RunErrorEvent {
  if (usage === undefined) return { type: EventType.RUN_ERROR, code, message, timestamp: now };
  return { type: EventType.RUN_ERROR, code, message, usage, timestamp: now };
}
