import type { BaseEvent } from '@ag-ui/core';
import { Subject, type MonoTypeOperatorFunction, type Observable } from 'rxjs';

/** How each event of a run reaches its delivery: directly, or through the host's operators. */
export interface EventHand {
  /** Hands one event on; throws what made the operators fail (a fault of the run). */
  next(event: BaseEvent): void;
  /** The run's events are over; throws what made the operators fail, or that they still hold the end. */
  complete(): void;
  /** Lets go of the operators, and of anything an asynchronous one still holds. */
  close(): void;
}

const noop = () => undefined;

/**
 * The host's run operators between a run and its delivery (docs/extending.md#run-operators). They must be
 * synchronous: an event comes out, if at all, within the call that hands it in, and the end within the
 * call that ends the run. What comes out at any other time (a `delay`, a `mergeMap` to I/O) is refused,
 * never delivered: it would be written past the back-pressure wait, or after the run ended and its thread
 * was released. The refusal, like an operator that throws, is a fault of the run, thrown at its next call.
 * The check is two flag writes per event, and none without operators (docs/benchmarks.md).
 */
export function throughOperators(
  operators: readonly MonoTypeOperatorFunction<BaseEvent>[],
  deliver: (event: BaseEvent) => void,
): EventHand {
  if (operators.length === 0) return { next: deliver, complete: noop, close: noop };
  const input = new Subject<BaseEvent>();
  let failure: { error: unknown } | undefined;
  let isInCall = false;
  let isCompleted = false;
  // Subscribing counts as a call: what an operator emits then (a `startWith`) comes out before any event.
  isInCall = true;
  const subscription = operators
    .reduce((events: Observable<BaseEvent>, operator) => operator(events), input)
    .subscribe({
      next: (event) => {
        if (isInCall) deliver(event);
        else failure ??= { error: new AsynchronousOperatorError() };
      },
      error: (error: unknown) => (failure ??= { error }),
      complete: () => (isCompleted = true),
    });
  isInCall = false;
  const thrown = () => {
    if (failure) throw failure.error;
  };
  return {
    next: (event) => {
      isInCall = true;
      input.next(event);
      isInCall = false;
      thrown();
    },
    complete: () => {
      isInCall = true;
      input.complete();
      isInCall = false;
      if (!isCompleted) failure ??= { error: new AsynchronousOperatorError() };
      thrown();
    },
    close: () => subscription.unsubscribe(),
  };
}

/** A run operator let an event, or the end, out later than the call that handed it in. */
export class AsynchronousOperatorError extends Error {
  constructor() {
    super(
      'a run operator emitted outside the call that handed it the event (an asynchronous operator): ' +
        'run operators must be synchronous (docs/extending.md#run-operators)',
    );
    this.name = 'AsynchronousOperatorError';
  }
}
