import type { BaseEvent } from '@ag-ui/core';
import { delay, filter, map, startWith, tap } from 'rxjs';
import { AsynchronousOperatorError, throughOperators } from './through-operators';

const event = (type: string) => ({ type, timestamp: 1 }) as BaseEvent;

/** The host's run operators between a run and its delivery (docs/extending.md#run-operators). */
describe('throughOperators', () => {
  const delivered: string[] = [];
  const deliver = (value: BaseEvent) => delivered.push(value.type);
  beforeEach(() => (delivered.length = 0));
  afterEach(() => jest.useRealTimers());

  it('hands events straight on without operators', () => {
    const hand = throughOperators([], deliver);
    hand.next(event('RUN_STARTED'));
    hand.complete();
    hand.close();
    expect(delivered).toEqual(['RUN_STARTED']);
  });

  it('applies synchronous operators in order, each event within the call that hands it in', () => {
    const audited: string[] = [];
    const hand = throughOperators(
      [
        tap((value) => audited.push(value.type)),
        filter((value) => value.type !== 'CUSTOM'),
        map((value) => ({ ...value, type: value.type.toLowerCase() }) as BaseEvent),
      ],
      deliver,
    );
    hand.next(event('RUN_STARTED'));
    expect(delivered).toEqual(['run_started']);
    hand.next(event('CUSTOM'));
    hand.next(event('RUN_FINISHED'));
    hand.complete();
    expect(delivered).toEqual(['run_started', 'run_finished']);
    expect(audited).toEqual(['RUN_STARTED', 'CUSTOM', 'RUN_FINISHED']);
  });

  it('delivers what an operator emits as it is subscribed, before the first event', () => {
    const hand = throughOperators([startWith(event('CUSTOM'))], deliver);
    hand.next(event('RUN_STARTED'));
    hand.complete();
    expect(delivered).toEqual(['CUSTOM', 'RUN_STARTED']);
  });

  it('throws what a throwing operator threw, at the call that handed the event in', () => {
    const failure = new Error('redaction failed');
    const hand = throughOperators(
      [
        map((value) => {
          if (value.type === 'TEXT_MESSAGE_CONTENT') throw failure;
          return value;
        }),
      ],
      deliver,
    );
    hand.next(event('RUN_STARTED'));
    expect(() => hand.next(event('TEXT_MESSAGE_CONTENT'))).toThrow(failure);
    expect(delivered).toEqual(['RUN_STARTED']);
  });

  it('refuses an event an asynchronous operator lets out later: never delivered, a fault at the next call', () => {
    jest.useFakeTimers();
    const hand = throughOperators([delay(1)], deliver);
    hand.next(event('RUN_STARTED'));
    jest.advanceTimersByTime(1);
    expect(delivered).toEqual([]);
    expect(() => hand.next(event('RUN_FINISHED'))).toThrow(AsynchronousOperatorError);
    hand.close();
    expect(jest.getTimerCount()).toBe(0);
  });

  it('refuses an end the operators still hold once the run is over, and close() lets go of their timers', () => {
    jest.useFakeTimers();
    const hand = throughOperators([delay(1)], deliver);
    hand.next(event('RUN_STARTED'));
    hand.next(event('RUN_FINISHED'));
    expect(() => hand.complete()).toThrow(AsynchronousOperatorError);
    hand.close();
    expect(jest.getTimerCount()).toBe(0);
    jest.advanceTimersByTime(10);
    expect(delivered).toEqual([]);
  });
});
