import { Injectable } from '@nestjs/common';
import type { Response } from 'express';
import { RunMetrics } from '../metrics/run-metrics';
import { sseRecordOf, type EventFrame } from '../wire/sse-frame';
import { drainedOrClosed, TurnCork, type RunSink } from '../runs/run-flow-control';
import { HEARTBEAT_COMMENT, Heartbeat } from './with-heartbeat';

/**
 * Writes runs as SSE (docs/behaviour/sse.md): LF-only `id: <cursor>\ndata: <json>\n\n` records, the data
 * as @ag-ui/encoder writes it (`encodeSseFrame`; always SSE, never the protobuf a wildcard Accept would
 * pick), plus the heartbeat comment, which has no id. `open` gives one response's stream: the run's sink,
 * with its back-pressure.
 */
@Injectable()
export class SseWriter {
  constructor(private readonly metrics: RunMetrics) {}

  /** Starts the SSE response (status, headers, heartbeat); the run's events then go to the returned sink. */
  open(response: Response, heartbeatMs: number): SseStream {
    return new SseStream(response, this.metrics, heartbeatMs);
  }
}

/** One SSE response as a run's sink: headers, batched frame writes, back-pressure, the heartbeat. */
export class SseStream implements RunSink {
  private isFinished = false;
  /** The first frame (RUN_STARTED) leaves at once, not at the end of the turn (see `write`). */
  private hasWrittenFrame = false;
  private readonly turnCork = new TurnCork(
    () => this.response.cork(),
    () => this.uncork(),
  );
  private readonly heartbeat: Heartbeat;

  constructor(
    private readonly response: Response,
    private readonly metrics: RunMetrics,
    heartbeatMs: number,
  ) {
    response.status(200);
    response.setHeader('Content-Type', 'text/event-stream');
    response.setHeader('Cache-Control', 'no-cache, no-transform');
    response.setHeader('Connection', 'keep-alive');
    response.setHeader('X-Accel-Buffering', 'no');
    // Corked first: the headers leave in the same write as the first frame.
    this.turnCork.forThisTurn();
    response.flushHeaders();
    response.socket?.setNoDelay(true);
    this.heartbeat = new Heartbeat(heartbeatMs, () => {
      this.metrics.heartbeatSent();
      this.writeFrame(HEARTBEAT_COMMENT);
    });
    response.on('close', () => this.heartbeat.stop());
  }

  /** Calls `leave` once if the client closes the response before the run's events are over. */
  onClientGone(leave: () => void): void {
    this.response.on('close', () => {
      if (!this.isFinished) leave();
    });
  }

  /**
   * The first frame is flushed at once: the rest of its turn builds and sends the kernel call, which the
   * client's RUN_STARTED need not wait for (docs/benchmarks.md#per-run-profile). It costs no extra write:
   * nothing else of the run is written in that turn but reopened Pipeline steps.
   */
  write(frame: EventFrame): void {
    this.heartbeat.frameSent();
    this.writeFrame(sseRecordOf(frame));
    if (this.hasWrittenFrame) return;
    this.hasWrittenFrame = true;
    this.turnCork.flush();
  }

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
    this.turnCork.flush();
    if (!socket.writableNeedDrain) return undefined;
    return drainedOrClosed(socket, response);
  }

  end(): void {
    this.finish();
    // Flush before ending: once ended, the response lets go of its socket and could not uncork it.
    this.turnCork.flush();
    this.response.end();
  }

  /** RunService turns every failure into a RUN_ERROR event; a fault here is a bug, so cut the stream. */
  abort(): void {
    this.finish();
    this.response.destroy();
  }

  private finish(): void {
    this.isFinished = true;
    this.heartbeat.stop();
  }

  private writeFrame(frame: string): void {
    this.turnCork.forThisTurn();
    this.response.write(frame);
  }

  /**
   * Node 24's `response.uncork()` uncorks the socket first and then writes the buffered chunk piece by piece
   * (size line, each frame, CRLF): one write() syscall per frame. Holding the socket's own cork across it
   * makes the whole turn one writev (docs/benchmarks.md, `eventsPerWrite`).
   */
  private uncork(): void {
    const socket = this.response.socket;
    socket?.cork();
    this.response.uncork();
    socket?.uncork();
  }
}
