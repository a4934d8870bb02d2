import type { BaseEvent } from '@ag-ui/core';

/** A transport's back-pressure, as the run sees it. */
export interface RunFlowControl {
  /** Undefined when the transport can take more now; else a promise that settles once it can (or closed). */
  whenWritable(): Promise<void> | undefined;
}

/**
 * One client connection a run writes to, whatever the transport (an SSE response, a WebSocket): what the
 * run handler (RunDelivery) needs from it. Writes made in one turn of the event loop leave in one socket
 * write; `whenWritable` is its back-pressure.
 */
export interface RunSink extends RunFlowControl {
  /** One AG-UI event, in the transport's framing. */
  write(event: BaseEvent): void;
  /** The run's events are over: flush and finish the response (the connection may stay, as /ws does). */
  end(): void;
  /** A fault of the gateway itself, never a run's failure (that is a RUN_ERROR event): cut the connection. */
  abort(error: unknown): void;
}

/** What can be waited on: a socket's 'drain', a response's or WebSocket's 'close'. */
interface Emitter {
  once(event: string, listener: () => void): unknown;
  off(event: string, listener: () => void): unknown;
}

/**
 * Settles on the socket's next 'drain', or when `connection` closes first (a client that stopped reading
 * and left: its buffer never drains). Both listeners are removed either way.
 */
export function drainedOrClosed(socket: Emitter, connection: Emitter): Promise<void> {
  return new Promise<void>((resolve) => {
    const done = () => {
      socket.off('drain', done);
      connection.off('close', done);
      resolve();
    };
    socket.once('drain', done);
    connection.once('close', done);
  });
}

/**
 * Writes made in one turn of the event loop leave in one socket write: the first write of a turn corks, and
 * the end of the turn (setImmediate, never a timer) or a wait for drain flushes (docs/benchmarks.md,
 * `eventsPerWrite`). `cork` / `flush` are the transport's own.
 */
export class TurnCork {
  private isCorked = false;
  private readonly flushNow = () => this.flush();

  constructor(
    private readonly corkSocket: () => void,
    private readonly flushSocket: () => void,
  ) {}

  /** Before a write: cork, unless this turn already did. */
  forThisTurn(): void {
    if (this.isCorked) return;
    this.isCorked = true;
    this.corkSocket();
    setImmediate(this.flushNow);
  }

  /** Writes what this turn corked, now (before judging the socket's buffer, or before ending). */
  flush(): void {
    if (!this.isCorked) return;
    this.isCorked = false;
    this.flushSocket();
  }
}
