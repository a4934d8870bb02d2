import { Inject, Injectable } from '@nestjs/common';
import { HealthIndicatorService } from '@nestjs/terminus';
import { CLOCK, type Clock } from '../common/clock';
import { THREAD_STORE, storeFailureReason, type ThreadStore } from './thread-store';

/**
 * The store is probed at most this often: the file store's probe is a real write and fsync, and the
 * readiness route is open and polled every few seconds by every probe of every replica.
 */
export const STORE_PROBE_INTERVAL_MS = 5000;
/**
 * A probe that has not answered by then counts as down: a stalled Redis (or disk) must give a prompt 503, well
 * inside a probe's own timeout, not hold the readiness route for the store's command timeout.
 */
export const STORE_PROBE_DEADLINE_MS = 1000;

/** `up`, `no answer in time`, or the failure (storeFailureReason: a file store's names its errno and path). */
type ProbeResult = string;

/** Ready only when the thread store can write (the state directory, or Redis). */
@Injectable()
export class ThreadStoreHealthIndicator {
  private lastProbe?: { readonly at: number; readonly result: Promise<ProbeResult> };

  constructor(
    private readonly health: HealthIndicatorService,
    @Inject(THREAD_STORE) private readonly store: ThreadStore,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  async isHealthy(key = 'threadStore') {
    const indicator = this.health.check(key);
    const result = await this.probe();
    return result === 'up' ? indicator.up() : indicator.down({ reason: result });
  }

  /** The cached result while it is fresh; concurrent checks share one probe. */
  private probe(): Promise<ProbeResult> {
    const now = this.clock.now();
    if (this.lastProbe === undefined || now - this.lastProbe.at >= STORE_PROBE_INTERVAL_MS) {
      let deadline: NodeJS.Timeout | undefined;
      const late = new Promise<ProbeResult>((resolve) => {
        deadline = setTimeout(() => resolve('no answer in time'), STORE_PROBE_DEADLINE_MS);
        deadline.unref();
      });
      const answered = this.store.checkReady().then(
        (): ProbeResult => 'up',
        (error: unknown): ProbeResult => storeFailureReason(error),
      );
      this.lastProbe = {
        at: now,
        result: Promise.race([answered, late]).finally(() => clearTimeout(deadline)),
      };
    }
    return this.lastProbe.result;
  }
}
