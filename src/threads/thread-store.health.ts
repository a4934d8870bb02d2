import { Inject, Injectable } from '@nestjs/common';
import { HealthIndicatorService } from '@nestjs/terminus';
import { THREAD_STORE, type ThreadStore } from './thread-store';

/** Ready only when the thread store can write (the state directory, or later Redis). */
@Injectable()
export class ThreadStoreHealthIndicator {
  constructor(
    private readonly health: HealthIndicatorService,
    @Inject(THREAD_STORE) private readonly store: ThreadStore,
  ) {}

  async isHealthy(key = 'threadStore') {
    const indicator = this.health.check(key);
    try {
      await this.store.checkReady();
      return indicator.up();
    } catch {
      return indicator.down({ reason: 'unavailable' });
    }
  }
}
