import { Observable, type MonoTypeOperatorFunction } from 'rxjs';

/** The SSE comment written after each period of silence (docs/behaviour/sse.md): not an AG-UI event. */
export const HEARTBEAT_COMMENT = ': heartbeat\n\n';

/**
 * Merges a heartbeat comment into a stream of encoded SSE frames: one comment after every `periodMs`
 * without a frame, the wait restarting after each frame, and none after the stream ends.
 *
 * Hand-written rather than `switchMap(() => interval())` because that allocates a subscription and a timer
 * per frame (about a tenth of the gateway's CPU per event in `npm run bench`); here a frame only records its
 * time, and the one timer of the run re-arms itself for the rest of the period when it finds a recent frame.
 */
export function withHeartbeat(
  periodMs: number,
  now: () => number = Date.now,
): MonoTypeOperatorFunction<string> {
  return (frames) =>
    new Observable<string>((subscriber) => {
      let lastFrameAt = now();
      let timer: NodeJS.Timeout | undefined;
      const arm = (delay: number) => {
        timer = setTimeout(() => {
          const silence = now() - lastFrameAt;
          if (silence < periodMs) return arm(periodMs - silence);
          subscriber.next(HEARTBEAT_COMMENT);
          lastFrameAt = now();
          arm(periodMs);
        }, delay);
      };
      arm(periodMs);
      const subscription = frames.subscribe({
        next: (frame) => {
          lastFrameAt = now();
          subscriber.next(frame);
        },
        error: (error: unknown) => subscriber.error(error),
        complete: () => subscriber.complete(),
      });
      return () => {
        clearTimeout(timer);
        subscription.unsubscribe();
      };
    });
}
