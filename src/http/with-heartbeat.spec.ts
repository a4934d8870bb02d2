import { asyncScheduler, Subject } from 'rxjs';
import { TestScheduler } from 'rxjs/testing';
import { HEARTBEAT, withHeartbeat } from './with-heartbeat';

/** Marble specs of the heartbeat operator (docs/behaviour/sse.md#heartbeat): `h` is a heartbeat. */
describe('withHeartbeat', () => {
  // Virtual time ends at frame 1000 (run mode would flush for ever): a timer left running re-arms itself, so
  // a leak fails the check below rather than hanging every spec.
  const scheduler = () => {
    const testScheduler = new TestScheduler((actual, expected) => expect(actual).toEqual(expected));
    Object.defineProperty(testScheduler, 'maxFrames', { get: () => 1000, set: () => undefined });
    return testScheduler;
  };
  const values = { a: 'a', b: 'b', h: HEARTBEAT };

  it('emits a heartbeat after every period of silence', () => {
    scheduler().run(({ cold, expectObservable }) => {
      const source = cold('-a 30ms |', values);
      // a at 1; beats at 11, 21, 31; the source completes at 32.
      expectObservable(source.pipe(withHeartbeat(10)), '^ 40ms !').toBe('-a 9ms h 9ms h 9ms h |', values);
    });
  });

  it('restarts the wait after each value: a frame resets the period', () => {
    scheduler().run(({ cold, expectObservable }) => {
      const source = cold('a 6ms b 6ms a 12ms |', values);
      // Values at 0, 7 and 14: never 10 ms of silence until 24.
      expectObservable(source.pipe(withHeartbeat(10))).toBe('a 6ms b 6ms a 9ms h 2ms |', values);
    });
  });

  it('stops at completion and at an error: nothing after them, and no timer left', () => {
    const testScheduler = scheduler();
    let actionsLeft = -1;
    testScheduler.run(({ cold, expectObservable }) => {
      expectObservable(cold('a 3ms |', values).pipe(withHeartbeat(10))).toBe('a 3ms |', values);
      expectObservable(cold('a 3ms #', values).pipe(withHeartbeat(10))).toBe('a 3ms #', values);
      testScheduler.schedule(() => (actionsLeft = testScheduler.actions.length), 40);
    });
    expect(actionsLeft).toBe(0);
  });

  it('beats from the subscription while nothing arrives, and stops when the subscriber leaves', () => {
    scheduler().run(({ hot, expectObservable, expectSubscriptions }) => {
      const source = hot('-------------------', values);
      expectObservable(source.pipe(withHeartbeat(5)), '^ 12ms !').toBe('5ms h 4ms h', values);
      expectSubscriptions(source.subscriptions).toBe('^ 12ms !');
    });
  });

  it('leaves no timer behind after unsubscribing: the scheduler holds no action of it', () => {
    const testScheduler = scheduler();
    let actionsLeft = -1;
    testScheduler.run(({ hot, expectObservable, expectSubscriptions }) => {
      const source = hot('a 3ms a', values);
      // Values at 0 and 4, a beat at 9; the subscriber leaves at 13, before the next beat (14).
      expectObservable(source.pipe(withHeartbeat(5)), '^ 12ms !').toBe('a 3ms a 4ms h', values);
      expectSubscriptions(source.subscriptions).toBe('^ 12ms !');
      testScheduler.schedule(() => (actionsLeft = testScheduler.actions.length), 40);
    });
    expect(actionsLeft).toBe(0);
  });

  it('on the asyncScheduler: one timer per subscription across 100 values, re-armed, none after unsubscribing', () => {
    jest.useFakeTimers();
    try {
      const source = new Subject<string>();
      const seen: unknown[] = [];
      const subscription = source.pipe(withHeartbeat(10, asyncScheduler)).subscribe((v) => seen.push(v));
      expect(jest.getTimerCount()).toBe(1);
      for (let i = 0; i < 100; i++) source.next('a');
      expect(jest.getTimerCount()).toBe(1);
      jest.advanceTimersByTime(10);
      expect(seen.at(-1)).toBe(HEARTBEAT);
      subscription.unsubscribe();
      expect(jest.getTimerCount()).toBe(0);
      jest.advanceTimersByTime(100);
      expect(seen.filter((v) => v === HEARTBEAT)).toHaveLength(1);
    } finally {
      jest.useRealTimers();
    }
  });
});
