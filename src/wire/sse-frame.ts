import { EventType, type BaseEvent } from '@ag-ui/core';
import { EventEncoder } from '@ag-ui/encoder';

const encoder = new EventEncoder({ accept: 'text/event-stream' });

/**
 * The streaming deltas, which the mapper builds from strings and a number only (no optional field is ever
 * null): the bulk of a burst, so they skip the encoder's schema walk for optional nulls (`omit`, ~5 % of
 * the gateway's CPU in a burst, docs/benchmarks.md "Where the time goes"). sse-frame.spec.ts proves the
 * bytes equal `EventEncoder.encodeSSE` for every event type the mapper emits.
 */
const DELTA_TYPES: ReadonlySet<string> = new Set([
  EventType.TEXT_MESSAGE_CONTENT,
  EventType.REASONING_MESSAGE_CONTENT,
  EventType.TOOL_CALL_ARGS,
]);

/** One AG-UI event as an LF-framed SSE record, `data: <json>\n\n`, as `@ag-ui/encoder` writes it. */
export function encodeSseFrame(event: BaseEvent): string {
  if (DELTA_TYPES.has(event.type)) return `data: ${JSON.stringify(event)}\n\n`;
  return encoder.encodeSSE(event);
}

/**
 * One event of a run as it goes out: its SSE record (`data: <json>\n\n`, what /ws sends as one message)
 * and its cursor (`id:`), encoded once and shared by every reader of the run.
 */
export interface EventFrame {
  readonly id: string;
  readonly data: string;
}

/** The SSE record with its `id:` line first; clients that read only `data:` lines read it as before. */
export function sseRecordOf(frame: EventFrame): string {
  return `id: ${frame.id}\n${frame.data}`;
}
