import type { FrameSink } from '../run-log/frame-sink';

/** One client connection a run writes to: the run handler's sink, also what a reattached reader writes to. */
export type RunSink = FrameSink;

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
