import {
  asyncScheduler,
  Observable,
  type OperatorFunction,
  type SchedulerAction,
  type SchedulerLike,
} from 'rxjs';

/** The SSE comment written after each period of silence (docs/behaviour/sse.md): not an AG-UI event. */
export const HEARTBEAT_COMMENT = ': heartbeat\n\n';

/** What `withHeartbeat` emits after a period without a value. */
export const HEARTBEAT = Symbol('heartbeat');
export type Heartbeat = typeof HEARTBEAT;

/**
 * Passes every value on and emits HEARTBEAT after every `periodMs` without one, the wait restarting after
 * each value; completion, an error or unsubscribing stop it. A value only records its time: the one timer
 * of the subscription re-arms itself for the rest of the period when it finds a recent value, rather than a
 * timer per value (that cost about a tenth of the gateway's CPU per event in `npm run bench`).
 */
export function withHeartbeat<T>(
  periodMs: number,
  scheduler: SchedulerLike = asyncScheduler,
): OperatorFunction<T, T | Heartbeat> {
  return (source) =>
    new Observable<T | Heartbeat>((subscriber) => {
      let lastValueAt = scheduler.now();
      subscriber.add(
        scheduler.schedule(function (this: SchedulerAction<undefined>) {
          const silence = scheduler.now() - lastValueAt;
          if (silence >= periodMs) {
            subscriber.next(HEARTBEAT);
            lastValueAt = scheduler.now();
          }
          this.schedule(undefined, periodMs - (scheduler.now() - lastValueAt));
        }, periodMs),
      );
      subscriber.add(
        source.subscribe({
          next: (value) => {
            lastValueAt = scheduler.now();
            subscriber.next(value);
          },
          error: (error: unknown) => subscriber.error(error),
          complete: () => subscriber.complete(),
        }),
      );
    });
}
