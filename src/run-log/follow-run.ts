import { AguiError } from '../common/agui-error';
import { ErrorCode } from '../common/error-code';
import type { FrameSink } from './frame-sink';
import type { RetainedRun } from './retained-run';

/** A reader following a retained run: stop() is its client leaving. */
export interface RunFollower {
  /** Settles once the reader is done (the run's log ended, the client left, or it fell behind the log). */
  readonly done: Promise<void>;
  stop(): void;
}

/**
 * Writes every frame of the run after `sequence` into the sink, then each new one as it is logged, and ends
 * the sink after the run's last frame (docs/behaviour/reattach.md#routes). It counts as one reader for as
 * long as it follows, with the sink's own back-pressure: a slow reader holds nobody else back. A reader so
 * slow that the log dropped frames it has not read yet is cut with EVENTS_EXPIRED (the connection is cut,
 * never ended cleanly: its client reattaches from its cursor and is answered 410), never given a stream
 * with a hole in it.
 */
export function followRun(run: RetainedRun, sequence: number, sink: FrameSink): RunFollower {
  let isStopped = false;
  let wake: (() => void) | undefined;
  run.readerJoined();
  const follow = async () => {
    let after = sequence;
    const { log } = run;
    while (!isStopped) {
      const read = log.after(after);
      if (read.kind === 'expired')
        return sink.abort(new AguiError(ErrorCode.EVENTS_EXPIRED, 'eventsExpired'));
      const wasClosed = log.closed;
      for (const frame of read.frames) {
        if (isStopped) return;
        sink.write(frame);
        after++;
        const writable = sink.whenWritable();
        if (writable) await untilStopped(writable);
      }
      if (wasClosed && after >= log.lastSequence) return sink.end();
      if (read.frames.length === 0) await untilStopped(log.whenChanged());
    }
  };
  const untilStopped = (promise: Promise<void>) =>
    new Promise<void>((resolve, reject) => {
      wake = resolve;
      promise.then(resolve, reject);
    }).finally(() => (wake = undefined));
  const done = follow()
    .catch((error: unknown) => sink.abort(error))
    .finally(() => {
      isStopped = true;
      run.readerLeft();
    });
  return {
    done,
    stop: () => {
      isStopped = true;
      wake?.();
    },
  };
}
