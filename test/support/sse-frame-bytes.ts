import type { BaseEvent } from '@ag-ui/core';
import { EventEncoder } from '@ag-ui/encoder';
import { encodeSseFrame } from '../../src/wire/sse-frame';

const reference = new EventEncoder({ accept: 'text/event-stream' });

/** The gateway's SSE encoding of each event is byte for byte the library's (`EventEncoder.encodeSSE`). */
export function expectEncoderBytes(events: readonly BaseEvent[]): void {
  for (const event of events) expect(encodeSseFrame(event)).toBe(reference.encodeSSE(event));
}
