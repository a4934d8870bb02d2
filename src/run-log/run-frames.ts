import { Observable } from 'rxjs';
import type { EventFrame } from '../wire/sse-frame';
import type { FrameSink } from './frame-sink';

/**
 * The run's side of back-pressure (docs/architecture.md#a-run): a renderer whose socket is over its high-water
 * mark holds the run with the promise of its 'drain' (or close), and the run awaits it before its next event.
 * It holds one promise at a time and nothing else, so nothing queues between the run and its socket.
 */
export class RunDemand {
  private held: Promise<void> | undefined;

  /** The renderer's socket is full: the run's next event waits for `until`. */
  hold(until: Promise<void>): void {
    this.held = until;
  }

  /** What the run must await before its next event, once; undefined when nothing holds it. */
  take(): Promise<void> | undefined {
    const held = this.held;
    this.held = undefined;
    return held;
  }
}

/** One event of a run as its Observable emits it: its frame, and the demand its renderer answers with. */
export interface RunFrame extends EventFrame {
  readonly demand: RunDemand;
}

/**
 * A run (or a reader of one) as a cold Observable of its frames (docs/architecture.md#a-run): `start` begins
 * delivering into a sink at subscription and returns what to call when the subscriber leaves. The sink's
 * `end` completes the Observable; its `abort` (a fault of the gateway, never a run's failure, which is a
 * RUN_ERROR event) errors it. Unsubscribing before the end is the client leaving; after the end it is
 * nothing.
 */
export function framesOf(start: (sink: FrameSink) => () => void): Observable<RunFrame> {
  return new Observable<RunFrame>((subscriber) => {
    const demand = new RunDemand();
    let isOver = false;
    const leave = start({
      write: (frame) => subscriber.next({ id: frame.id, data: frame.data, demand }),
      whenWritable: () => demand.take(),
      end: () => {
        isOver = true;
        subscriber.complete();
      },
      abort: (error) => {
        isOver = true;
        subscriber.error(error);
      },
    });
    return () => {
      if (!isOver) leave();
    };
  });
}
