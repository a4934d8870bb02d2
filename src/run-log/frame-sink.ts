import type { EventFrame } from '../wire/sse-frame';

/**
 * One client connection a run's frames are written to, whatever the transport (an SSE response, a
 * WebSocket): what the run handler (RunDelivery) and a reattached reader need from it. Writes made in one
 * turn of the event loop leave in one socket write; `whenWritable` is its back-pressure.
 */
export interface FrameSink {
  /** One AG-UI event, in the transport's framing. */
  write(frame: EventFrame): void;
  /** Undefined when the transport can take more now; else a promise that settles once it can (or closed). */
  whenWritable(): Promise<void> | undefined;
  /** The run's events are over: flush and finish the response (the connection may stay, as /ws does). */
  end(): void;
  /** A fault of the gateway itself, never a run's failure (that is a RUN_ERROR event): cut the connection. */
  abort(error: unknown): void;
}
