import { EventType, type BaseEvent } from '@ag-ui/core';
import { expectEncoderBytes } from '../../test/support/sse-frame-bytes';
import { encodeSseFrame } from './sse-frame';

// The mapper's own tables (a2a-event-mapper.spec.ts, map-pipeline.spec.ts) check every event they emit the
// same way; these are the deltas the fast path takes, with text that JSON must escape.
const TEXT = 'line\nbreak "quoted" \\ tab\t \u2028 emoji 🧪 ü';
const deltas: BaseEvent[] = [
  { type: EventType.TEXT_MESSAGE_CONTENT, messageId: 'm', delta: TEXT, timestamp: 1 } as BaseEvent,
  { type: EventType.REASONING_MESSAGE_CONTENT, messageId: 'r', delta: TEXT, timestamp: 2 } as BaseEvent,
  { type: EventType.TOOL_CALL_ARGS, toolCallId: 't', delta: '{"a":null}', timestamp: 3 } as BaseEvent,
];

describe('encodeSseFrame', () => {
  it.each(deltas)('writes $type as EventEncoder.encodeSSE does, byte for byte', (event) => {
    expectEncoderBytes([event]);
    expect(encodeSseFrame(event)).toMatch(/^data: \{.*\}\n\n$/s);
  });

  it('leaves other events to the encoder, which drops their optional nulls', () => {
    const event = {
      type: EventType.RUN_ERROR,
      message: 'x',
      code: null,
      timestamp: 4,
    } as unknown as BaseEvent;
    expectEncoderBytes([event]);
    expect(encodeSseFrame(event)).not.toContain('null');
  });
});
