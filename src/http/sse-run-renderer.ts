import { Inject, Injectable } from '@nestjs/common';
import type { Request, Response } from 'express';
import { Observable, type OperatorFunction } from 'rxjs';
import { APP_CONFIG, type AppConfig } from '../config/app-config';
import { RunMetrics } from '../metrics/run-metrics';
import type { RunFrame } from '../run-log/run-frames';
import { drainedOrClosed, TurnCork } from '../runs/run-flow-control';
import { sseRecordOf } from '../wire/sse-frame';
import { HEARTBEAT, HEARTBEAT_COMMENT, type Heartbeat } from './with-heartbeat';

/**
 * Sent first by a route whose admission is over but whose first frame may be a while away (a reattach at the
 * head of a quiet run): the response opens (200, headers) at once, with nothing written.
 */
export const SSE_OPEN = Symbol('sse-open');

/** What a run route renders: its frames, the heartbeat in its silences, and optionally SSE_OPEN first. */
export type SseRunItem = RunFrame | Heartbeat | typeof SSE_OPEN;

/**
 * The one SSE renderer of runs (the run routes and the reattach routes, docs/behaviour/sse.md): the last
 * operator of the Observable such a route returns, beside Nest's `@Sse()`, which is GET-only and writes one
 * event per write. An operator rather than an interceptor: Nest 12 holds about 6 KB more per open request for
 * a route with an interceptor (`bench/floor.ts`, docs/benchmarks.md#memory-where-it-is-idle-and-per-open-run), for the whole life
 * of a run.
 *
 * Each record is `data: <json>\n\n` as @ag-ui/encoder writes it (never the protobuf a wildcard Accept would
 * pick), with an `id: <cursor>` line first only while reattaching is on (docs/behaviour/reattach.md#event-ids),
 * so with the defaults the body is the original's framing exactly; the heartbeat comment has no id. The
 * response opens (200) at the first item, after admission; a refusal thrown before it is the route's exception
 * filter's, as before any stream. The client closing the response unsubscribes, which is the run's client
 * leaving. A failure of the Observable goes to the route's filter, which cuts a response already open. The
 * rendered Observable emits once, when the run has ended the response: Nest's own reply then sends nothing.
 */
@Injectable()
export class SseRunRenderer {
  private readonly writesIds: boolean;

  constructor(
    private readonly metrics: RunMetrics,
    @Inject(APP_CONFIG) config: AppConfig,
  ) {
    this.writesIds = config.reattach.graceMs > 0;
  }

  /** Renders the items into the response of `request` (an Express request: its `res`). */
  render(request: Request): OperatorFunction<SseRunItem, void> {
    const response = request.res!;
    return (items) =>
      new Observable<void>((subscriber) => {
        const stream = new SseResponse(response, this.metrics, this.writesIds);
        const run = items.subscribe({
          next: (item) => stream.write(item),
          error: (error: unknown) => {
            stream.stop();
            subscriber.error(error);
          },
          complete: () => {
            stream.end();
            subscriber.next();
            subscriber.complete();
          },
        });
        const leave = () => run.unsubscribe();
        response.once('close', leave);
        return () => {
          response.off('close', leave);
          run.unsubscribe();
        };
      });
  }
}

/** One SSE response of a run: headers at the first item, batched writes, back-pressure. */
class SseResponse {
  private isOpen = false;
  private readonly turnCork = new TurnCork(
    () => this.response.cork(),
    () => this.uncork(),
  );

  constructor(
    private readonly response: Response,
    private readonly metrics: RunMetrics,
    private readonly writesIds: boolean,
  ) {}

  /**
   * The first frame is flushed at once: the rest of its turn builds and sends the kernel call, which the
   * client's RUN_STARTED need not wait for (docs/benchmarks.md#per-run-profile). It costs no extra write:
   * nothing else of the run is written in that turn but reopened Pipeline steps.
   */
  write(item: SseRunItem): void {
    if (this.response.destroyed) return;
    const isFirst = !this.isOpen;
    if (isFirst) this.open();
    // The headers leave at the end of this turn, with any frame written in it.
    if (item === SSE_OPEN) return;
    this.turnCork.forThisTurn();
    if (item === HEARTBEAT) {
      this.metrics.heartbeatSent();
      this.response.write(HEARTBEAT_COMMENT);
      return;
    }
    this.response.write(this.writesIds ? sseRecordOf(item) : item.data);
    if (isFirst) this.turnCork.flush();
    const full = this.whenWritable();
    if (full) item.demand.hold(full);
  }

  end(): void {
    if (!this.isOpen) this.open();
    // Flush before ending: once ended, the response lets go of its socket and could not uncork it.
    this.turnCork.flush();
    this.response.end();
  }

  /** The run failed as a fault (its filter cuts the response): what this turn corked is let go. */
  stop(): void {
    this.turnCork.flush();
  }

  private open(): void {
    this.isOpen = true;
    const { response } = this;
    response.status(200);
    response.setHeader('Content-Type', 'text/event-stream');
    response.setHeader('Cache-Control', 'no-cache, no-transform');
    response.setHeader('Connection', 'keep-alive');
    response.setHeader('X-Accel-Buffering', 'no');
    // Corked first: the headers leave in the same write as the first frame.
    this.turnCork.forThisTurn();
    response.flushHeaders();
    response.socket?.setNoDelay(true);
  }

  /**
   * Once Node's buffer for the response is over its high-water mark (16 KiB, plus the frame that crossed it)
   * the run waits for 'drain' — or for the close of a client that stopped reading, which ends the run
   * anyway. That bounds what a slow client costs; the upstream is not read meanwhile.
   */
  private whenWritable(): Promise<void> | undefined {
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
