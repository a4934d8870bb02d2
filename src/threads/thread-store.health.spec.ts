import { HealthIndicatorService } from '@nestjs/terminus';
import { FakeClock } from '../../test/support/fakes/fake-clock';
import { InMemoryThreadStore } from '../../test/support/fakes/in-memory-thread-store';
import {
  STORE_PROBE_DEADLINE_MS,
  STORE_PROBE_INTERVAL_MS,
  ThreadStoreHealthIndicator,
} from './thread-store.health';

/** A store whose readiness a test switches, counting the probes it answered. */
class SwitchableStore extends InMemoryThreadStore {
  isFull = false;
  isStalled = false;
  probes = 0;
  override async checkReady(): Promise<void> {
    this.probes += 1;
    if (this.isStalled) return new Promise(() => undefined);
    if (this.isFull) throw new Error('ENOSPC');
  }
}

describe('ThreadStoreHealthIndicator', () => {
  function setup() {
    const clock = new FakeClock();
    const store = new SwitchableStore();
    const sut = new ThreadStoreHealthIndicator(new HealthIndicatorService(), store, clock);
    const status = async () => (await sut.isHealthy('threadStore')).threadStore.status;
    return { clock, store, status, sut };
  }

  it('is down when the store cannot write', async () => {
    const { store, status } = setup();
    store.isFull = true;
    expect(await status()).toBe('down');
  });

  it('is down once the probe has not answered within its own deadline (a stalled Redis)', async () => {
    jest.useFakeTimers();
    try {
      const { clock, store, sut } = setup();
      store.isStalled = true;
      const health = sut.isHealthy('threadStore');
      await jest.advanceTimersByTimeAsync(STORE_PROBE_DEADLINE_MS);
      expect((await health).threadStore).toEqual({ status: 'down', reason: 'no answer in time' });
      store.isStalled = false;
      clock.advance(STORE_PROBE_INTERVAL_MS);
      expect((await sut.isHealthy('threadStore')).threadStore.status).toBe('up');
    } finally {
      jest.useRealTimers();
    }
  });

  it('probes at most once per interval, and sees a change after it', async () => {
    const { clock, store, status } = setup();
    expect(await Promise.all([status(), status()])).toEqual(['up', 'up']);
    store.isFull = true;
    clock.advance(STORE_PROBE_INTERVAL_MS - 1);
    expect(await status()).toBe('up');
    expect(store.probes).toBe(1);
    clock.advance(1);
    expect(await status()).toBe('down');
    expect(store.probes).toBe(2);
  });
});
