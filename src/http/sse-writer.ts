import { Injectable } from '@nestjs/common';
import type { BaseEvent } from '@ag-ui/core';
import type { Response } from 'express';
import { type Observable, map } from 'rxjs';
import { RunMetrics } from '../metrics/run-metrics';
import { encodeSseFrame } from '../wire/sse-frame';
import type { RunFlowControl } from '../runs/run-flow-control';
import { HEARTBEAT_COMMENT, withHeartbeat } from './with-heartbeat';

/**
 * Writes runs as SSE (docs/behaviour/sse.md): LF-only `data: <json>\n\n` frames as @ag-ui/encoder writes
 * them (`encodeSseFrame`; always SSE, never the protobuf a wildcard Accept would pick), plus the heartbeat
 * comment. `open` gives one response's stream, which is also the run's back-pressure.
 */
@Injectable()
export class SseWriter {
  constructor(private readonly metrics: RunMetrics) {}

  open(response: Response): SseStream {
    return new SseStream(response, this.metrics);
  }
}

/** One SSE response: headers, batched frame writes, back-pressure, and the client's disconnect. */
export class SseStream implements RunFlowControl {
  private isCorked = false;

  constructor(
    private readonly response: Response,
    private readonly metrics: RunMetrics,
  ) {}

  /**
   * Once Node's buffer for the response is over its high-water mark (16 KiB, plus the frame that crossed it)
   * the run waits for 'drain' — or for the close of a client that stopped reading, which ends the run
   * anyway. That bounds what a slow client costs; the upstream is not read meanwhile.
   */
  whenWritable(): Promise<void> | undefined {
    const { response } = this;
    const socket = response.socket;
    if (!socket || response.destroyed || !(response.writableNeedDrain || socket.writableNeedDrain))
      return undefined;
    // Flush what this turn corked, then judge by the socket: the response's own 'drain' is only emitted
    // when the socket drains after having been full, so waiting on it could wait for ever.
    this.uncork();
    if (!socket.writableNeedDrain) return undefined;
    return new Promise<void>((resolve) => {
      const done = () => {
        socket.off('drain', done);
        response.off('close', done);
        resolve();
      };
      socket.once('drain', done);
      response.once('close', done);
    });
  }

  /** Writes the run's events until they end; a closed socket unsubscribes, which runs the run's teardown. */
  pipe(events: Observable<BaseEvent>, heartbeatMs: number): void {
    const { response } = this;
    response.status(200);
    response.setHeader('Content-Type', 'text/event-stream');
    response.setHeader('Cache-Control', 'no-cache, no-transform');
    response.setHeader('Connection', 'keep-alive');
    response.setHeader('X-Accel-Buffering', 'no');
    response.flushHeaders();
    response.socket?.setNoDelay(true);

    let finished = false;
    const subscription = events.pipe(map(encodeSseFrame), withHeartbeat(heartbeatMs)).subscribe({
      next: (frame) => this.writeFrame(frame),
      // RunService turns every failure into a RUN_ERROR event; an error here is a bug, so cut the stream.
      error: () => {
        finished = true;
        response.destroy();
      },
      complete: () => {
        finished = true;
        // Flush before ending: once ended, the response lets go of its socket and could not uncork it.
        this.uncork();
        response.end();
      },
    });
    response.on('close', () => {
      if (!finished) subscription.unsubscribe();
    });
  }

  /**
   * Frames produced in one turn of the event loop (a burst of deltas from one upstream chunk) leave in one
   * socket write; a lone frame waits only until the end of the turn (setImmediate), never for a timer.
   */
  private writeFrame(frame: string): void {
    if (frame === HEARTBEAT_COMMENT) this.metrics.heartbeatSent();
    if (!this.isCorked) {
      this.isCorked = true;
      this.response.cork();
      setImmediate(() => this.uncork());
    }
    this.response.write(frame);
  }

  /**
   * Node 24's `response.uncork()` uncorks the socket first and then writes the buffered chunk piece by piece
   * (size line, each frame, CRLF): one write() syscall per frame. Holding the socket's own cork across it
   * makes the whole turn one writev (docs/benchmarks.md, `eventsPerWrite`).
   */
  private uncork(): void {
    if (!this.isCorked) return;
    this.isCorked = false;
    const socket = this.response.socket;
    socket?.cork();
    this.response.uncork();
    socket?.uncork();
  }
}
