import { ActivityTracker } from './activity-tracker';
import type { Clock } from './clock';

class SteppedClock implements Clock {
  current = 1_700_000_000_000;
  now(): number {
    return this.current;
  }
  uuid(): string {
    return 'not-used';
  }
}

describe('ActivityTracker', () => {
  it('is Healthy with the start time until work begins', () => {
    const clock = new SteppedClock();
    const tracker = new ActivityTracker(clock);
    clock.current += 60_000;
    expect(tracker.ping()).toEqual({ status: 'Healthy', time_of_last_update: 1_700_000_000 });
    expect(tracker.ping()).toEqual(tracker.ping());
  });

  it('moves the timestamp only when the status changes', () => {
    const clock = new SteppedClock();
    const tracker = new ActivityTracker(clock);
    clock.current += 5_000;
    const endFirst = tracker.begin();
    clock.current += 5_000;
    const endSecond = tracker.begin();
    expect(tracker.ping()).toEqual({ status: 'HealthyBusy', time_of_last_update: 1_700_000_005 });
    clock.current += 5_000;
    endFirst();
    endFirst(); // ending twice must not end the second piece of work
    expect(tracker.ping()).toEqual({ status: 'HealthyBusy', time_of_last_update: 1_700_000_005 });
    clock.current += 5_000;
    endSecond();
    expect(tracker.ping()).toEqual({ status: 'Healthy', time_of_last_update: 1_700_000_020 });
  });

  it('tracks an async piece of work until it settles, also when it fails', async () => {
    const clock = new SteppedClock();
    const tracker = new ActivityTracker(clock);
    let release!: () => void;
    const work = tracker.track(() => new Promise<void>((resolve) => (release = resolve)));
    expect(tracker.isBusy).toBe(true);
    release();
    await work;
    expect(tracker.isBusy).toBe(false);
    await expect(tracker.track(() => Promise.reject(new Error('upstream down')))).rejects.toThrow(
      'upstream down',
    );
    expect(tracker.isBusy).toBe(false);
  });
});
