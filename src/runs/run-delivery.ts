import type { BaseEvent } from '@ag-ui/core';
import type { MonoTypeOperatorFunction } from 'rxjs';
import { formatCursor } from '../run-log/event-cursor';
import type { RetainedRun } from '../run-log/retained-run';
import { encodeSseFrame, type EventFrame } from '../wire/sse-frame';
import type { RunSink } from './run-flow-control';
import { throughOperators } from './through-operators';

/** What RunDelivery drives: a run's events, and how to tell it its client left. */
export interface DeliveredRun {
  events(): AsyncIterator<BaseEvent>;
  disconnect(): void;
}

/** Sees each event once it is handed to the client, and the end of the run (metrics, spans, hooks). */
export interface RunObserver {
  event(event: BaseEvent): void;
  end(): void;
}

/** How the run's events are numbered, and where they are kept for readers that reattach. */
export interface RunDeliveryLog {
  /** The first half of every event id of the run (docs/behaviour/reattach.md#event-ids). */
  readonly runToken: string;
  /** Set when reattaching is on: the client leaving then detaches the run instead of ending it. */
  readonly retained?: RetainedRun;
}

/**
 * The one run handler of both transports (SSE and /ws): pulls the run's events into its sink, one at a
 * time, and stops pulling while the sink is over its high-water mark, so a slow client holds the upstream
 * read back instead of the gateway buffering its run without bound. Transport state stays in the sink, run
 * state in the run; this joins them and nothing else. Each event gets its id here; with a retained run it
 * is also logged, and once the client left the run is read on into the log (no back-pressure then: the
 * log's bounds hold) until the grace window or the log's bound ends it.
 */
export class RunDelivery {
  private hasLeft = false;
  /** Ends the current wait for the sink, if any: a buffer that will never drain once the client left. */
  private wake?: () => void;

  constructor(
    private readonly run: DeliveredRun,
    private readonly sink: RunSink,
    private readonly observers: readonly RunObserver[],
    /** Frees the thread's slot; idempotent, never rejects. */
    private readonly release: () => Promise<void>,
    private readonly log: RunDeliveryLog,
    /** The host's operators, applied to every event in order before it is numbered (docs/extending.md#run-operators). */
    private readonly operators: readonly MonoTypeOperatorFunction<BaseEvent>[] = [],
  ) {}

  /**
   * Delivers every event, then ends the sink; settles once the run is over, never rejects. After the
   * client left the run is drained, not dropped: it has stopped its A2A calls (or reads on, bounded, only
   * to learn the task id it must cancel) and ends through its own teardown.
   */
  async deliver(): Promise<void> {
    const { sink, observers } = this;
    const { runToken, retained } = this.log;
    const events = this.run.events();
    let sequence = 0;
    const deliverEvent = (event: BaseEvent) => {
      const frame: EventFrame = { id: formatCursor(runToken, ++sequence), data: encodeSseFrame(event) };
      retained?.append(frame);
      if (!this.hasLeft) sink.write(frame);
      // After the client has it; hooks are called, never awaited.
      for (const observer of observers) observer.event(event);
    };
    const hand = throughOperators(this.operators, deliverEvent);
    try {
      for (let next = await events.next(); !next.done; next = await events.next()) {
        hand.next(next.value);
        const writable = this.hasLeft ? undefined : sink.whenWritable();
        if (writable) await this.waitFor(writable);
      }
      hand.complete();
      // Free the slot before the stream ends: the client's next turn may reach another replica at once.
      await this.release();
      retained?.runEnded();
      if (!this.hasLeft) sink.end();
    } catch (error) {
      if (!this.hasLeft) sink.abort(error);
      this.leave();
    } finally {
      hand.close();
      retained?.runEnded();
      for (const observer of observers) observer.end();
      // eslint-disable-next-line @typescript-eslint/no-floating-promises -- release() never rejects; the slot is freed in the background, the stream is already over
      void this.release();
    }
  }

  /**
   * The client left (the transport says so): nothing more is written to it. The run is told at once, or,
   * when it is retained, once its last reader is gone and the grace window passed. Idempotent.
   */
  leave(): void {
    if (this.hasLeft) return;
    this.hasLeft = true;
    this.wake?.();
    if (this.log.retained) this.log.retained.readerLeft();
    else this.run.disconnect();
  }

  /**
   * Until the sink can take more or the client leaves. Not a race against one "left" promise: that would add a
   * reaction to it at every wait, kept for the whole run.
   */
  private async waitFor(writable: Promise<void>): Promise<void> {
    await new Promise<void>((resolve, reject) => {
      this.wake = resolve;
      writable.then(resolve, reject);
    });
    this.wake = undefined;
  }
}
