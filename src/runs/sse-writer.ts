import { Injectable } from '@nestjs/common';
import type { BaseEvent } from '@ag-ui/core';
import { EventEncoder } from '@ag-ui/encoder';
import type { Response } from 'express';
import { type Observable, map } from 'rxjs';
import { RunMetrics } from '../metrics/run-metrics';
import { HEARTBEAT_COMMENT, withHeartbeat } from './with-heartbeat';

/**
 * Writes a run's events as SSE (reference §8): LF-only `data: <json>\n\n` frames through @ag-ui/encoder,
 * constructed for `text/event-stream` explicitly (given curl's wildcard Accept it would pick protobuf), plus
 * the heartbeat comment. A closed socket unsubscribes, which runs the run's own teardown.
 */
@Injectable()
export class SseWriter {
  private readonly encoder = new EventEncoder({ accept: 'text/event-stream' });

  constructor(private readonly metrics: RunMetrics) {}

  write(response: Response, events: Observable<BaseEvent>, heartbeatMs: number): void {
    response.status(200);
    response.setHeader('Content-Type', 'text/event-stream');
    response.setHeader('Cache-Control', 'no-cache, no-transform');
    response.setHeader('Connection', 'keep-alive');
    response.setHeader('X-Accel-Buffering', 'no');
    response.flushHeaders();
    response.socket?.setNoDelay(true);

    let finished = false;
    let isCorked = false;
    // Frames produced in one turn of the event loop (a burst of deltas from one upstream chunk) leave in
    // one socket write; a lone frame waits only until the end of the turn (setImmediate), never for a timer.
    const uncork = () => {
      if (!isCorked) return;
      isCorked = false;
      response.uncork();
    };
    const subscription = events
      .pipe(
        map((event) => this.encoder.encodeSSE(event)),
        withHeartbeat(heartbeatMs),
      )
      .subscribe({
        next: (frame) => {
          if (frame === HEARTBEAT_COMMENT) this.metrics.heartbeatSent();
          if (!isCorked) {
            isCorked = true;
            response.cork();
            setImmediate(uncork);
          }
          response.write(frame);
        },
        // RunService turns every failure into a RUN_ERROR event; an error here is a bug, so cut the stream.
        error: () => {
          finished = true;
          response.destroy();
        },
        complete: () => {
          finished = true;
          // Flush before ending: once ended, the response lets go of its socket and could not uncork it.
          uncork();
          response.end();
        },
      });
    response.on('close', () => {
      if (!finished) subscription.unsubscribe();
    });
  }
}
