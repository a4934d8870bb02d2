import { StreamResponse } from '@a2a-js/sdk';
import type { AgentExecutionEvent, ExecutionEventBus } from '@a2a-js/sdk/server';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

/** An A2A executor's event bus that records what is published, as the wire JSON the transport would write. */
export class RecordingEventBus implements ExecutionEventBus {
  readonly frames: Json[] = [];
  publish(event: AgentExecutionEvent): void {
    const payload = { $case: event.kind, value: event.data } as StreamResponse['payload'];
    this.frames.push(StreamResponse.toJSON({ payload }) as Json);
  }
  on(): this {
    return this;
  }
  off(): this {
    return this;
  }
  once(): this {
    return this;
  }
  removeAllListeners(): this {
    return this;
  }
  finished(): void {}
}
