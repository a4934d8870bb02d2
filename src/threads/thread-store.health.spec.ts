import { HealthIndicatorService } from '@nestjs/terminus';
import { FakeClock } from '../../test/support/fakes/fake-clock';
import { InMemoryThreadStore } from '../../test/support/fakes/in-memory-thread-store';
import {
  STORE_PROBE_DEADLINE_MS,
  STORE_PROBE_REUSE_MS,
  ThreadStoreHealthIndicator,
} from './thread-store.health';
import { ThreadStoreNotReadyError } from './thread-store';

/** A store whose readiness a test switches, counting the probes it was asked. */
class SwitchableStore extends InMemoryThreadStore {
  isFull = false;
  isStalled = false;
  notReadyBecause?: string;
  probes = 0;
  /** Resolves the stalled probes once the stall ends. */
  private readonly stalled: (() => void)[] = [];
  override async checkReady(): Promise<void> {
    this.probes += 1;
    if (this.isStalled) return new Promise((resolve) => this.stalled.push(resolve));
    if (this.notReadyBecause) throw new ThreadStoreNotReadyError(this.notReadyBecause);
    if (this.isFull) throw new Error('ENOSPC');
  }
  endStall(): void {
    this.isStalled = false;
    for (const resolve of this.stalled.splice(0)) resolve();
  }
}

describe('ThreadStoreHealthIndicator', () => {
  function setup() {
    const clock = new FakeClock();
    const store = new SwitchableStore();
    const sut = new ThreadStoreHealthIndicator(new HealthIndicatorService(), store, clock);
    const check = async () => (await sut.isHealthy('threadStore')).threadStore;
    const status = async () => (await check()).status;
    return { clock, store, check, status };
  }

  beforeEach(() => jest.useFakeTimers());
  afterEach(() => jest.useRealTimers());

  it('is down when the store cannot write, with the reason the store gives when it gives one', async () => {
    const { store, check, clock } = setup();
    store.isFull = true;
    expect(await check()).toEqual({ status: 'down', reason: 'unavailable' });
    store.notReadyBecause = 'Redis durability not checked yet (Redis does not answer)';
    clock.advance(1);
    expect(await check()).toEqual({
      status: 'down',
      reason: 'Redis durability not checked yet (Redis does not answer)',
    });
  });

  it('is down once the probe has not answered within its own deadline, and probes again at once after', async () => {
    const { store, check, status } = setup();
    store.isStalled = true;
    const health = check();
    await jest.advanceTimersByTimeAsync(STORE_PROBE_DEADLINE_MS);
    expect(await health).toEqual({ status: 'down', reason: 'no answer in time' });
    // The stall ends: the very next check probes again (a failed probe is never reused), no clock moved.
    store.endStall();
    expect(await status()).toBe('up');
    expect(store.probes).toBe(2);
  });

  it('shares a probe in flight between checks', async () => {
    const { store, status } = setup();
    store.isStalled = true;
    const both = Promise.all([status(), status()]);
    await jest.advanceTimersByTimeAsync(STORE_PROBE_DEADLINE_MS);
    expect(await both).toEqual(['down', 'down']);
    expect(store.probes).toBe(1);
  });

  it('reuses an "up" only while it is younger than the reuse window, counted from when it was sent', async () => {
    const { clock, store, status } = setup();
    expect(await Promise.all([status(), status()])).toEqual(['up', 'up']);
    store.isFull = true;
    clock.advance(STORE_PROBE_REUSE_MS - 1);
    expect(await status()).toBe('up');
    expect(store.probes).toBe(1);
    clock.advance(1);
    expect(await status()).toBe('down');
    expect(store.probes).toBe(2);
  });

  it('never reuses an "up" that took longer than the reuse window to answer (a slow store)', async () => {
    const { clock, store, status } = setup();
    store.isStalled = true;
    const slow = status();
    clock.advance(STORE_PROBE_REUSE_MS);
    store.endStall();
    expect(await slow).toBe('up');
    store.isFull = true;
    expect(await status()).toBe('down');
    expect(store.probes).toBe(2);
  });

  it('never reuses a "down": the next check probes again, so the end of a fault is seen at once', async () => {
    const { store, status } = setup();
    store.isFull = true;
    expect(await status()).toBe('down');
    store.isFull = false;
    expect(await status()).toBe('up');
    expect(store.probes).toBe(2);
  });
});
