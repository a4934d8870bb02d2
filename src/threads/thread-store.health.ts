import { Inject, Injectable } from '@nestjs/common';
import { HealthIndicatorService } from '@nestjs/terminus';
import { CLOCK, type Clock } from '../common/clock';
import { THREAD_STORE, type ThreadStore } from './thread-store';

/**
 * The store is probed at most this often: the file store's probe is a real write and fsync, and the
 * readiness route is open and polled every few seconds by every probe of every replica.
 */
export const STORE_PROBE_INTERVAL_MS = 5000;

/** Ready only when the thread store can write (the state directory, or Redis). */
@Injectable()
export class ThreadStoreHealthIndicator {
  private lastProbe?: { readonly at: number; readonly isUp: Promise<boolean> };

  constructor(
    private readonly health: HealthIndicatorService,
    @Inject(THREAD_STORE) private readonly store: ThreadStore,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  async isHealthy(key = 'threadStore') {
    const indicator = this.health.check(key);
    return (await this.probe()) ? indicator.up() : indicator.down({ reason: 'unavailable' });
  }

  /** The cached result while it is fresh; concurrent checks share one probe. */
  private probe(): Promise<boolean> {
    const now = this.clock.now();
    if (this.lastProbe === undefined || now - this.lastProbe.at >= STORE_PROBE_INTERVAL_MS) {
      this.lastProbe = {
        at: now,
        isUp: this.store.checkReady().then(
          () => true,
          () => false,
        ),
      };
    }
    return this.lastProbe.isUp;
  }
}
