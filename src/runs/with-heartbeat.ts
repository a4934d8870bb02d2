import {
  type MonoTypeOperatorFunction,
  connect,
  endWith,
  ignoreElements,
  interval,
  map,
  merge,
  startWith,
  switchMap,
  takeUntil,
} from 'rxjs';

/** The SSE comment written after each period of silence (reference §8): not an AG-UI event. */
export const HEARTBEAT_COMMENT = ': heartbeat\n\n';

/**
 * Merges a heartbeat comment into a stream of encoded SSE frames: one comment after every `periodMs`
 * without a frame, restarting the wait after each frame, and none after the stream ends.
 */
export function withHeartbeat(periodMs: number): MonoTypeOperatorFunction<string> {
  return (frames) =>
    frames.pipe(
      connect((shared) => {
        const ended = shared.pipe(ignoreElements(), endWith(true));
        const beats = shared.pipe(
          startWith(''),
          switchMap(() => interval(periodMs).pipe(map(() => HEARTBEAT_COMMENT))),
          takeUntil(ended),
        );
        return merge(shared, beats);
      }),
    );
}
